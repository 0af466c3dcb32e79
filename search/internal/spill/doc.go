// Package spill is the on-disk form of a layered search's layers: the
// layer-partition file, its reading and writing, and the manifest of a
// spill directory. It knows nothing of the in-memory tables: a file is a
// sorted run of mixed keys, each with an optional 128-bit count, and the
// same file is what a run on many machines would exchange.
//
// # Partitions
//
// A layer (the positions of one peg count) is split into P partitions, P
// a power of two chosen when the layer is made: partition q holds the
// positions whose mixed key (key.Mix, an odd multiple of the position, so
// its top bits are a hash) has q as its top log2(P) bits. Since a layer
// is sorted by mixed key, its partitions are consecutive ranges of it, and
// reading them in order reads the layer in order.
//
// A directory holds three kinds of file, all in the one format:
//
//	layer17-p003.spill   partition 3 of the positions of 17 pegs, with path counts
//	run16-f003-p005.spill the children of layer 17's partition 3 that fall in layer 16's partition 5
//	win17-p003.spill     the winnable positions of partition 3 of 17 pegs (keys only)
//
// # File layout
//
// Every integer is little-endian. A file is a header, blocks, and a
// trailer block.
//
// The header is 40 bytes:
//
//	0   8  magic "PEGSPILL"
//	8   2  format version (2)
//	10  1  kind: 1 layer partition, 2 run, 3 winnable partition, 4 chance
//	       partition (the winnable positions with the random player's
//	       chance of winning from each, in units of 2^-118, or a partial
//	       sum of it between passes)
//	11  1  flags: bit 0 set when each record carries a 128-bit count
//	12  2  pegs of the positions
//	14  2  partition (of a run: the partition of the layer it goes into)
//	16  2  partitions of that layer (a power of two)
//	18  2  source of a run: the partition of its parents, plus the chunk
//	       times the parents' partitions where that partition was
//	       expanded in chunks (zero otherwise)
//	20  4  most records a block holds
//	24  8  zero (reserved)
//	32  8  XXH64 of bytes 0-31
//
// A block is
//
//	0   4  records n (1 to the most a block holds)
//	4   4  payload length L
//	8   L  payload
//	8+L 8  XXH64 of bytes 0 to 8+L of the block
//
// Its payload codes n records: the first key as a uvarint, then each next
// key as the uvarint of its gap from the one before (keys strictly
// increase within and across blocks); then, with counts, each record's
// count as two uvarints, its low and high 64 bits. A block decodes without
// the ones before it.
//
// The trailer is a block of zero records whose 16-byte payload holds the
// file's records and blocks (two uint64), with its checksum like any
// block's; nothing follows it.
//
// # Checksums
//
// The header and each block carry the XXH64 (github.com/cespare/xxhash) of
// their bytes. A reader checks each, and also that keys increase, lie in
// the partition the header names, that counts are present as the flags
// say, and that the trailer's totals match and ends the file. Whatever it
// finds wrong it reports as a *CorruptError that names the layer, the
// partition, the file and the block, in one line
// ("spill: layer 17 partition 3 (DIR/layer17-p003.spill): checksum
// mismatch in block 12"); errors.Is(err, ErrCorrupt) holds for it. Garbage
// makes errors, never a panic (FuzzReadPartition).
//
// # The manifest
//
// manifest.json records the problem the directory is for (board, start,
// goal, and the options that change what is counted), the format version,
// and for each layer by peg count: its partition count, which partitions
// are complete and their records, the stats of expanding each partition
// into runs once all of its runs are written (of a layer expanded whole
// in memory, without runs, all on its first partition; with the chunks it was
// expanded in, when the layer came out larger than its partition count
// was chosen for), and which winnable
// partitions the walk back has written. A directory that names another
// problem is refused.
//
// # Crash safety
//
// Every file, the manifest too, is written under a temporary name
// (NAME.tmp; the manifest's is made by package atomicfile), synced, renamed to its name, and the directory synced: a
// file under its own name is complete. The manifest is written after the
// files it counts, and after a sync of the file system where they were
// written unsynced (Dir.SaveLater, which does both on a goroutine of its
// own while the run goes on), so what it says is complete is on disk; a
// run killed at any point (SIGKILL, power loss) leaves at worst temporary files, which
// are overwritten, and files the manifest does not count yet, which are
// written again. Runs are removed only once the partition merged from them
// is counted.
//
// # One run at a time
//
// Start and Resume lock the directory (flock(2) on the directory itself,
// on Unix) until Dir.Close: a second run on it, started or resumed, in
// this process or another, is refused at once with ErrInUse. The kernel
// drops the lock when the process ends, however it ends, so a killed run
// leaves nothing to clear by hand.
package spill
