module github.com/kgc-project/kgc

go 1.26.8

require (
	github.com/dlclark/regexp2/v2 v2.13.0
	golang.org/x/text v0.44.0
)

require (
	github.com/RoaringBitmap/roaring/v2 v2.30.0 // indirect
	github.com/bits-and-blooms/bitset v1.24.4 // indirect
	github.com/google/flatbuffers v25.12.19+incompatible // indirect
	github.com/klauspost/cpuid/v2 v2.2.10 // indirect
	github.com/mschoch/smat v0.2.0 // indirect
	github.com/zeebo/xxh3 v1.1.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
)
