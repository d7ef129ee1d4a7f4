package query

import (
	"github.com/kgc-project/kgc/runtime/record"
	"github.com/kgc-project/kgc/runtime/stats"

	"context"
)

// StatisticsResult is get_framework_statistics' result.
type StatisticsResult struct {
	Package        PackageRef     `json:"package"`
	SourceMetadata SourceMetadata `json:"sourceMetadata"`
	Statistics     Statistics     `json:"statistics"`
}

// FrameworkStatistics answers get_framework_statistics for one package.
func (s *Service) FrameworkStatistics(ctx context.Context, r FrameworkRequest) (*StatisticsResult, error) {
	if err := checkRequest(frameworkRequestSchema(true), &r); err != nil {
		return nil, err
	}
	result, err := s.frameworkStatistics(ctx, r)
	return own(s, result, err)
}

func (s *Service) frameworkStatistics(_ context.Context, r FrameworkRequest) (*StatisticsResult, error) {
	p, err := s.resolvePackage(r.FrameworkID, r.SnapshotID, r.GraphType)
	if err != nil {
		return nil, err
	}
	stats := s.memo.get("statistics:"+p.GraphPackageID(), func() any { return stats.Of(p) }).(Statistics)
	return &StatisticsResult{Package: record.Ref(p), SourceMetadata: record.Source(p), Statistics: stats}, nil
}
