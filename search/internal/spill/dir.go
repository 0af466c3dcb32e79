package spill

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"pegs/search/atomicfile"
	"pegs/search/internal/exact"
)

// ManifestName is the manifest's file name in a spill directory.
const ManifestName = "manifest.json"

// Manifest is what a spill directory holds, and how far its run came.
type Manifest struct {
	Format int `json:"format"`
	// Problem names the problem and the options that change its counts;
	// a directory is resumed only for the same.
	Problem map[string]string `json:"problem"`
	// Layers holds each layer's state by peg count.
	Layers map[int]*LayerState `json:"layers"`
}

// LayerState is how far a layer's files have come.
type LayerState struct {
	Partitions int `json:"partitions"`
	// Complete marks the partitions written; Records counts their
	// positions.
	Complete []bool  `json:"complete"`
	Records  []int64 `json:"records"`
	// Expanded holds, by partition, what expanding it found, once all its
	// runs into the next layer are written (nil before).
	Expanded []*Stats `json:"expanded"`
	// Won marks the partitions whose winnable positions are written;
	// Winnable counts them.
	Won      []bool  `json:"won"`
	Winnable []int64 `json:"winnable"`
}

// Stats is what expanding a partition learns about its positions.
type Stats struct {
	Positions int64      `json:"positions"`
	Raw       int64      `json:"raw"`
	DeadEnds  int64      `json:"dead_ends"`
	Games     exact.U128 `json:"games"`
	// Chunks counts the pieces the partition was expanded in, each
	// writing its own runs (0 or 1: one).
	Chunks int `json:"chunks,omitempty"`
}

// Pieces returns the chunks the partition was expanded in (at least one).
func (st *Stats) Pieces() int { return max(1, st.Chunks) }

// Done reports whether every partition is complete.
func (l *LayerState) Done() bool { return !slices.Contains(l.Complete, false) }

// Positions returns the layer's positions in the partitions written.
func (l *LayerState) Positions() int64 {
	var n int64
	for _, r := range l.Records {
		n += r
	}
	return n
}

// AllExpanded reports whether every partition has been expanded.
func (l *LayerState) AllExpanded() bool { return !slices.Contains(l.Expanded, nil) }

// AllWon reports whether every partition's winnable positions are written.
func (l *LayerState) AllWon() bool { return !slices.Contains(l.Won, false) }

// Dir is a spill directory: its files and manifest.
type Dir struct {
	Path string
	M    Manifest
	// Written counts the partition files written by this process, runs
	// and winnable files included.
	Written int
	// Bytes counts the bytes of the files written by this process.
	Bytes int64
	// NoSync leaves every file unsynced (Commit, Sync and Save still
	// write and rename): for tests, whose files need to outlive a killed
	// process, which the page cache does, not a crash of the machine.
	NoSync bool
	// lock holds the directory's lock until Close.
	lock *os.File
	// onDisk counts what the files this process wrote and has not removed
	// take on disk, each rounded up to whole blocks; Peak is its most.
	mu     sync.Mutex
	onDisk int64
	Peak   int64
	// saving is closed when the last job queued by SaveLater or
	// RemoveLater is done, nil before any; lastSave is the flag that
	// marks the last job queued superseded, where that job is a save;
	// saveErr holds the first job that failed. All three under mu.
	saving   chan struct{}
	lastSave *atomic.Bool
	saveErr  error
}

// fsBlock is the block a file system gives a file's bytes in: a small
// file takes a whole one.
const fsBlock = 4096

// blocks returns what n bytes of a file take on disk.
func blocks(n int64) int64 { return (n + fsBlock - 1) / fsBlock * fsBlock }

// count adds n bytes of a file to what the directory holds.
func (d *Dir) count(n int64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.onDisk += n
	d.Peak = max(d.Peak, d.onDisk)
}

// ErrExists reports a directory that already holds a run, opened to
// start one.
var ErrExists = errors.New("already holds a run")

// ErrOther reports a directory resumed for another problem than its own.
var ErrOther = errors.New("holds a run of another problem")

// ErrNoRun reports a directory resumed that holds no run.
var ErrNoRun = errors.New("holds no run to resume")

// ErrInUse reports a directory that another run (in this process or
// another) has open.
var ErrInUse = errors.New("is in use by another run")

// takeLock takes the directory's lock for d, or refuses at once.
func (d *Dir) takeLock() error {
	f, err := lockDir(d.Path)
	if errors.Is(err, ErrInUse) {
		return fmt.Errorf("spill: %s %w; wait for it to end, or give another directory", d.Path, ErrInUse)
	}
	if err != nil {
		return fmt.Errorf("spill: %w", err)
	}
	d.lock = f
	return nil
}

// Close releases the directory's lock, which Start and Resume take so
// that two runs never share a directory.
func (d *Dir) Close() error {
	if d.lock == nil {
		return nil
	}
	werr := d.Wait()
	err := d.lock.Close()
	if werr != nil {
		err = werr
	}
	d.lock = nil
	return err
}

// Start makes (or takes, if empty of a manifest) the directory path for a
// new run of problem, and locks it until Close.
func Start(path string, problem map[string]string) (*Dir, error) {
	if err := os.MkdirAll(path, 0o755); err != nil {
		return nil, fmt.Errorf("spill: %w", err)
	}
	d := &Dir{Path: path, M: Manifest{Format: version, Problem: problem, Layers: map[int]*LayerState{}}}
	if err := d.takeLock(); err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(path, ManifestName)); err == nil {
		d.Close()
		return nil, fmt.Errorf("spill: %s %w; resume it or give another directory", path, ErrExists)
	}
	if err := d.Save(); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// Resume opens the directory path of a run of problem, and locks it until
// Close.
func Resume(path string, problem map[string]string) (_ *Dir, err error) {
	if _, err := os.Stat(filepath.Join(path, ManifestName)); errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("spill: %s %w", path, ErrNoRun)
	}
	d := &Dir{Path: path}
	if err := d.takeLock(); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			d.Close()
		}
	}()
	b, err := os.ReadFile(filepath.Join(path, ManifestName))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("spill: %s %w", path, ErrNoRun)
	}
	if err != nil {
		return nil, fmt.Errorf("spill: %w", err)
	}
	if err := json.Unmarshal(b, &d.M); err != nil {
		return nil, fmt.Errorf("spill: %s: the manifest: %w", path, err)
	}
	if d.M.Format != version {
		return nil, fmt.Errorf("spill: %s: format %d, not %d", path, d.M.Format, version)
	}
	if !maps.Equal(d.M.Problem, problem) {
		return nil, fmt.Errorf("spill: %s %w (%s, not %s)", path, ErrOther, describe(d.M.Problem), describe(problem))
	}
	if d.M.Layers == nil {
		d.M.Layers = map[int]*LayerState{}
	}
	for pegs, l := range d.M.Layers {
		n := l.Partitions
		if n < 1 || n&(n-1) != 0 || len(l.Complete) != n || len(l.Records) != n || len(l.Expanded) != n || len(l.Won) != n || len(l.Winnable) != n {
			return nil, fmt.Errorf("spill: %s: the manifest's layer %d is malformed", path, pegs)
		}
	}
	return d, nil
}

// describe names a problem in one line.
func describe(p map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(p)) {
		parts = append(parts, k+" "+p[k])
	}
	return strings.Join(parts, ", ")
}

// Save writes the manifest through atomicfile (temporary file, sync,
// rename, directory sync), or with NoSync through a temporary file and a
// rename alone, once the saves queued by SaveLater are done.
func (d *Dir) Save() error {
	if err := d.Wait(); err != nil {
		return err
	}
	b, err := d.marshal()
	if err != nil {
		return err
	}
	return d.write(b)
}

// SaveLater saves the manifest as it is now once every file written so
// far is on disk (Sync), on a goroutine of its own, and returns at once:
// a layer's partitions written unsynced (Local.Later) are counted on
// disk only once durable, while the run goes on to the next layer rather
// than waiting for the disk. Saves are done in the order queued (one
// queued behind a newer one is skipped, the newer's sync covering its
// files); Save and Clear wait for them first, and Wait and Close wait
// for them and return the first error, which a later SaveLater returns
// too.
func (d *Dir) SaveLater() error {
	b, err := d.marshal()
	if err != nil {
		return err
	}
	return d.later(true, func(latest bool) error {
		if !latest {
			return nil
		}
		if err := d.Sync(); err != nil {
			return err
		}
		return d.write(b)
	})
}

// RemoveLater removes the files hs, as Remove, on a goroutine of its own
// once the saves queued before are done, and returns at once: files that
// the manifest on disk no longer needs go while the run goes on (their
// blocks freed, which on a file system mounted with discard took half a
// second for the English analysis's layers). Wait, Close and Clear wait
// for it.
func (d *Dir) RemoveLater(hs []Header) error {
	return d.later(false, func(bool) error {
		for _, h := range hs {
			if err := d.Remove(h); err != nil {
				return err
			}
		}
		return nil
	})
}

// later runs job on a goroutine of its own once the jobs queued before it
// are done, unless one failed; latest tells a save's job whether the job
// queued right after it is no save (which would write a newer manifest
// after a sync of its own, before any other job).
func (d *Dir) later(save bool, job func(latest bool) error) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.saveErr != nil {
		return d.saveErr
	}
	if save && d.lastSave != nil {
		d.lastSave.Store(true)
	}
	superseded := new(atomic.Bool)
	d.lastSave = nil
	if save {
		d.lastSave = superseded
	}
	prev, done := d.saving, make(chan struct{})
	d.saving = done
	go func() {
		defer close(done)
		if prev != nil {
			<-prev
		}
		d.mu.Lock()
		failed := d.saveErr != nil
		d.mu.Unlock()
		if failed {
			return
		}
		if err := job(!superseded.Load()); err != nil {
			d.mu.Lock()
			d.saveErr = cmp.Or(d.saveErr, err)
			d.mu.Unlock()
		}
	}()
	return nil
}

// Wait waits for the saves and removals queued by SaveLater and
// RemoveLater, and returns the first error of one.
func (d *Dir) Wait() error {
	d.mu.Lock()
	done := d.saving
	d.mu.Unlock()
	if done != nil {
		<-done
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.saveErr
}

// marshal returns the manifest's bytes as it is now.
func (d *Dir) marshal() ([]byte, error) {
	b, err := json.MarshalIndent(d.M, "", " ")
	if err != nil {
		return nil, fmt.Errorf("spill: %w", err)
	}
	return b, nil
}

// write writes b as the manifest (see Save).
func (d *Dir) write(b []byte) error {
	path := filepath.Join(d.Path, ManifestName)
	if d.NoSync {
		if err := os.WriteFile(path+".tmp", b, 0o644); err != nil {
			return fmt.Errorf("spill: the manifest: %w", err)
		}
		if err := os.Rename(path+".tmp", path); err != nil {
			return fmt.Errorf("spill: the manifest: %w", err)
		}
		return nil
	}
	if err := atomicfile.WriteFile(path, b, 0); err != nil {
		return fmt.Errorf("spill: the manifest: %w", err)
	}
	return nil
}

// NewLayer adds layer pegs of partitions partitions to the manifest (not
// saved), or returns the one there.
func (d *Dir) NewLayer(pegs, partitions int) *LayerState {
	if l, ok := d.M.Layers[pegs]; ok {
		return l
	}
	l := &LayerState{Partitions: partitions, Complete: make([]bool, partitions), Records: make([]int64, partitions),
		Expanded: make([]*Stats, partitions), Won: make([]bool, partitions), Winnable: make([]int64, partitions)}
	d.M.Layers[pegs] = l
	return l
}

// Path returns the path of a file of kind holding h.
func (d *Dir) File(h Header) string {
	var name string
	switch h.Kind {
	case LayerFile:
		name = fmt.Sprintf("layer%02d-p%03d.spill", h.Pegs, h.Partition)
	case RunFile:
		name = fmt.Sprintf("run%02d-f%03d-p%03d.spill", h.Pegs, h.Source, h.Partition)
	case ChanceFile:
		name = fmt.Sprintf("chance%02d-p%03d.spill", h.Pegs, h.Partition)
	default:
		name = fmt.Sprintf("win%02d-p%03d.spill", h.Pegs, h.Partition)
	}
	return filepath.Join(d.Path, name)
}

// Create starts the file holding h.
func (d *Dir) Create(h Header) (*Writer, error) { return Create(d.File(h), h) }

// Commit commits w and counts it.
func (d *Dir) Commit(w *Writer) error {
	if d.NoSync {
		w.NoSync = true
	}
	if err := w.Commit(); err != nil {
		return err
	}
	d.mu.Lock()
	d.Written++
	d.Bytes += w.Bytes()
	d.mu.Unlock()
	d.count(blocks(w.Bytes()))
	return nil
}

// Open opens the file holding h.
func (d *Dir) Open(h Header) (*Reader, error) { return Open(d.File(h), h) }

// Read reads the whole file holding h.
func (d *Dir) Read(h Header) ([]uint64, []exact.U128, error) {
	r, err := d.Open(h)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	return ReadAll(r)
}

// Remove removes the file holding h, if there.
func (d *Dir) Remove(h Header) error {
	st, serr := os.Stat(d.File(h))
	if err := os.Remove(d.File(h)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("spill: %w", err)
	}
	if serr == nil {
		d.count(-blocks(st.Size()))
	}
	return nil
}

// Clear removes the directory's spill files and manifest, and the
// directory itself if that leaves it empty.
func (d *Dir) Clear() error {
	d.Wait() // no save left to write a manifest after it is gone; a failed one matters no more
	// The manifest goes first: a run killed while its files go leaves
	// files no manifest counts, which a new run overwrites, never a
	// manifest counting files that are gone.
	files, err := filepath.Glob(filepath.Join(d.Path, "*.spill*"))
	if err != nil {
		return err
	}
	temps, err := filepath.Glob(filepath.Join(d.Path, "."+ManifestName+".tmp-*"))
	if err != nil {
		return err
	}
	for _, f := range append(append([]string{filepath.Join(d.Path, ManifestName)}, temps...), files...) {
		if err := os.Remove(f); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("spill: %w", err)
		}
	}
	os.Remove(d.Path) // only if empty
	return nil
}

// Used returns the bytes of the directory's files now.
func (d *Dir) Used() int64 {
	files, _ := filepath.Glob(filepath.Join(d.Path, "*"))
	var n int64
	for _, f := range files {
		if st, err := os.Stat(f); err == nil {
			n += st.Size()
		}
	}
	return n
}
