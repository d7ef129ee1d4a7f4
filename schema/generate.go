// Package schema holds, in its subpackages, the data contracts kgc reads:
// the package manifest, the interpretation profile, the prompt config, the
// rights policy, identifiers, the learning-progression summary and the
// closed registry of finding codes, each with a strict decoder. The image
// format is not here: it lives under kgimg/ (schema, generated code, reader,
// writer, compiled forms).
package schema
