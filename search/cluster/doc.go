// Package cluster runs a problem's exhaustive analysis (search.Explore) as
// an Apache Beam pipeline, on Prism in-process or on a portable runner's
// job server (Flink, Spark), and returns the same *search.Analysis.
//
// # Elements are partitions
//
// The pipeline's elements are references to layer partitions (files, see
// the internal package part), never positions. A layer, the positions of
// one peg count, is split into 1<<Bits partitions by the top bits of their
// mixed keys, so its partitions in order are its sorted keys. The files go
// through Beam's filesystem registry: a local directory on Prism, gs:// or
// s3:// on a cluster, where every worker reaches them.
//
// # Forward
//
// For each peg count from the start's down, a step expands a partition
// with its path counts by the in-process search's expander (layered.Paths)
// and writes the children as buckets, one per partition that owns them; it
// emits every partition of the next layer with its bucket ("" where it has
// none), so every partition of every layer exists. A GroupByKey brings
// each partition's buckets together and a step merges them, summing the
// path counts of a position reached from several buckets. The expanding
// step also writes its partition's stats: positions, raw positions, dead
// ends and the paths that end there (complete games).
//
// # Walking back
//
// The winnable positions of one peg are those that meet the goal. Going
// up, a step undoes every jump into a winnable partition (an expander of
// purpose layered.Parents, as layered.ParentsOf) and writes the parents as
// buckets by owner; after a GroupByKey a step keeps the parents found in
// the partition's reachable positions: its winnable ones. The steps reach
// search/internal through kernel alone.
//
// # Random play
//
// The random player's chance of each winnable position is found from one
// peg up with layered.Chances; a partition's step reads the whole winnable
// layer below with its chances (a side input of that layer's partitions
// makes it wait for them), which is small beside the reachable layers.
//
// # Retries and interruption
//
// Every step writes its files under temporary names and renames them, and
// a run's directory is named by its problem, so a step run again rewrites
// the same files. Prism fails a job at a bundle's first failure (it does
// not retry bundles; Flink and Spark do), so Run submits a failed job
// again, up to Options.Attempts times. Cancelled, Run cancels the job,
// waits for the steps in flight to finish their files (the job server
// stops scheduling steps, not those running), and says where the
// partitions finished so far are; they are kept.
//
// # Beam's globals
//
// The Beam SDK keeps its job options (endpoint, environment, job name) in
// flags of its own, global to the process. Run sets them in one place,
// under a mutex held until its job ends, so runs in one process take
// turns: a second waits for the first's job. The steps' types are
// registered in this package's init, as Beam requires.
package cluster
