package query
