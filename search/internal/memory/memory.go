// Package memory keeps a search's memory within its budget: every large
// array a search makes is charged to a Budget before it is made, and a
// search that would pass its budget stops with an *Error.
package memory

import (
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/dustin/go-humanize"

	"pegs/search/internal/twin"
)

// ErrExceeded is what every *Error is: errors.Is(err, ErrExceeded) reports
// a search stopped by its budget.
var ErrExceeded = errors.New("memory budget exceeded")

// Error reports a search that would pass its memory budget, with the
// numbers: what it needed the memory for, how much more, how much was in
// use and the budget.
type Error struct {
	What   string // what the memory was for, such as "the next layer's positions"
	Need   int64  // bytes more it needed
	InUse  int64  // bytes in use when it asked
	Budget int64  // the budget
	// Doing, if set, says what the search was doing, such as "finding
	// the positions of 28 pegs".
	Doing string
	// Setting, if set, names what sets the budget, such as a command's
	// flag "--mem"; the message names it beside the budget.
	Setting string
}

func (e *Error) Error() string {
	budget := humanize.IBytes(uint64(e.Budget))
	if e.Setting != "" {
		budget += ", set with " + e.Setting
	}
	s := fmt.Sprintf("%v: %s more for %s, %s in use (budget %s)", ErrExceeded,
		humanize.IBytes(uint64(e.Need)), e.What, humanize.IBytes(uint64(e.InUse)), budget)
	if e.Doing != "" {
		s += ", " + e.Doing
	}
	return s
}

// Is reports whether target is ErrExceeded.
func (e *Error) Is(target error) bool { return target == ErrExceeded }

// As makes errors.As find e as its public twin, search.MemoryError (see
// package twin).
func (e *Error) As(target any) bool { return twin.As(e, target) }

// Budget tracks the bytes held by a search against its limit. It is safe
// for concurrent use.
type Budget struct {
	limit int64
	used  atomic.Int64
	peak  atomic.Int64
	freed atomic.Int64 // given back since Give last asked for a collection
	// collectAt is how much Give hands back before it asks for a garbage
	// collection (see Give).
	collectAt int64
	mu        sync.Mutex
	spare     [][]uint64       // arrays kept for TakeWords, charged (see Spare)
	mapped    map[*uint64]bool // the arrays TakeMapped mapped, by their first word
	kept      map[*Kept]bool   // memory its owners keep for reuse, charged (see Keep)
}

// Kept is memory an owner keeps for reuse between uses, charged to a
// budget that lets it go when short (see Budget.Keep).
type Kept struct {
	bytes int64
	drop  func()
}

// defaultCollect is how much Give hands back before it asks for a
// collection, whatever the budget. At a sixteenth of it (512 MiB at the
// default 8 GiB) freed layers and lists waited for GOGC: the English full
// analysis (peak charge 448-465 MB) ended at 482-574 MiB of RSS over six
// runs, at 64 MiB 472-481 MiB in the same time (4.26 s); the French d3
// reachable-only run at --mem 6GiB took the same time (131.9 s, 131.1 s).
const defaultCollect = 64 << 20

// New returns a budget of limit bytes.
func New(limit int64) *Budget {
	return &Budget{limit: limit, collectAt: defaultCollect}
}

// Limit returns the budget in bytes.
func (b *Budget) Limit() int64 { return b.limit }

// Used returns the bytes held now.
func (b *Budget) Used() int64 { return b.used.Load() }

// Peak returns the most bytes held at once.
func (b *Budget) Peak() int64 { return b.peak.Load() }

// Take charges n bytes for what (which names it in the error), or returns
// an *Error, charging nothing, if that would pass the limit.
// Spare arrays are let go first, and make room.
func (b *Budget) Take(n int64, what string) error {
	u := b.used.Add(n)
	if u > b.limit {
		b.used.Add(-n)
		if b.dropSpares(0) > 0 {
			return b.Take(n, what)
		}
		return &Error{What: what, Need: n, InUse: u - n, Budget: b.limit}
	}
	b.raisePeak(u)
	return nil
}

// raisePeak makes u the peak if it is more.
func (b *Budget) raisePeak(u int64) {
	for {
		p := b.peak.Load()
		if u <= p || b.peak.CompareAndSwap(p, u) {
			return
		}
	}
}

// Give hands n bytes back. Once 64 MiB is handed back it asks for a
// garbage collection, so that the
// memory can be used again at once: else it waits, garbage, until the heap
// grows by GOGC percent or reaches the runtime's memory limit, and the
// search's next arrays take fresh memory meanwhile (French d3, --no-games
// --mem 6GiB: 8.4 GB peak RSS without, 7.1 GB with).
func (b *Budget) Give(n int64) {
	b.used.Add(-n)
	if f := b.freed.Add(n); f >= b.collectAt && b.freed.CompareAndSwap(f, 0) {
		go runtime.GC()
	}
}

// Touched returns n zero values with every page of their memory written
// once. Memory fresh from the system reads as a shared page of zeros until
// it is written, and a table's first touch of a slot is a probe's read: each
// page then faults twice, and the second fault flushes the page from every
// core's TLB (an interrupt to each, through the hypervisor on a VM).
// An array Make has its kernel write in (see populateBytes) is returned as
// it is.
func Touched[T any](n int) []T {
	s, populated := makeArray[T](n)
	if populated {
		return s
	}
	step := max(1, 4096/int(unsafe.Sizeof(*new(T))))
	for i := 0; i < n; i += step {
		s[i] = *new(T)
	}
	return s
}

// TakeWords charges n words for what, as Take does, and returns them,
// zero: the smallest spare array (see Spare) with room for them, cleared,
// where the budget keeps one, its charge moving to the n words (so that
// the array is counted once, not as a spare and again as taken); else
// fresh memory, written once a page (Touched), once Take allows it, the
// spare arrays too small for n let go. Clearing memory the process has
// written before is far cheaper than a fresh page: on this project's VM a
// fresh huge page took about 4 ms to fault in, and making the bitsets of
// the English winnable set's widest layers took 6-19 ms a layer.
func (b *Budget) TakeWords(n int, what string) ([]uint64, error) {
	return b.takeWords(n, n, what, true, false)
}

// TakeWordsRoom is TakeWords for an array that a caller takes again,
// larger, soon after, such as a worker's bitset of each of a search's
// growing layers: where no spare array has room for n words, the fresh
// one has room words (room more than n), so that the next call, spared
// this array, finds it large enough. It returns n zero words and charges
// the array's capacity, cap(s)*8 bytes, which the caller gives back
// (Give) before it spares the array (Spare). A spare reused is charged
// its capacity as it was. (The English winnable set's bitsets, each
// worker's layer by layer, took fresh memory at every layer, the last
// one's always too small: 0.7 to 9 MB a worker, 66 MB in all, written in
// by the kernel and cleared by the runtime.)
func (b *Budget) TakeWordsRoom(n, room int, what string) ([]uint64, error) {
	return b.takeWords(n, max(n, room), what, true, true)
}

// TakeWordsToFill is TakeWords for a caller that writes every word
// before it reads any: a spare's words are left as they were, and fresh
// memory is not written a page at a time first: the kernel writes its
// pages in (see populateBytes), or, where it does not, they fault in as
// the caller's workers write them, in parallel, each once (a page read
// first faults twice; see Touched). Made serially by TakeWords, a word
// written a page, the English full analysis's counts of complete games
// took 45-50 ms of its 2 s on one core while the other waited.
func (b *Budget) TakeWordsToFill(n int, what string) ([]uint64, error) {
	return b.takeWords(n, n, what, false, false)
}

// takeWords is TakeWords, with zero its words cleared or fresh ones
// touched, else left for the caller to fill. A fresh array has room words
// (n or more) where the budget allows, else n. With byCap the array is
// charged by its capacity, fresh or spare (TakeWordsRoom), else by its n
// words.
func (b *Budget) takeWords(n, room int, what string, zero, byCap bool) ([]uint64, error) {
	b.mu.Lock()
	best := -1
	for i, s := range b.spare {
		if cap(s) >= n && (best < 0 || cap(s) < cap(b.spare[best])) {
			best = i
		}
	}
	if best < 0 {
		b.mu.Unlock()
		b.dropSpares(n)
		if room == n || b.Take(int64(room)*8, what) != nil {
			if err := b.Take(int64(n)*8, what); err != nil {
				return nil, err
			}
			room = n
		}
		if !zero {
			return Make[uint64](room)[:n], nil
		}
		return Touched[uint64](room)[:n], nil
	}
	s := b.spare[best][:n]
	b.spare = slices.Delete(b.spare, best, best+1)
	b.mu.Unlock()
	if !byCap {
		b.used.Add(int64(n-cap(s)) * 8) // no more than the spare's: nothing to refuse
	}
	if zero {
		clear(s)
	}
	return s, nil
}

// GiveWords gives back the charge of s, made by TakeWords, and keeps it
// for reuse (see Spare).
func (b *Budget) GiveWords(s []uint64) {
	b.Give(int64(len(s)) * 8)
	b.Spare(s)
}

// minSpare is the fewest words worth keeping for reuse (a huge page's):
// smaller arrays come from the heap's own spans cheaply enough.
const minSpare = 2 << 20 / 8

// maxSpares is how many arrays a budget keeps for reuse: a worker's
// bitsets of one layer or two.
const maxSpares = 4

// Spare gives back an array of words made by TakeWords (or any the caller no
// longer reads) for a later TakeWords call to reuse; the caller has given its
// bytes back, or gives them as it would have. The budget charges what it
// keeps, so that Peak counts it and Take lets it go when short; it keeps
// no array past maxSpares (the smallest go) or the limit.
func (b *Budget) Spare(s []uint64) {
	bytes := int64(cap(s)) * 8
	if cap(s) < minSpare {
		return
	}
	u := b.used.Add(bytes)
	if u > b.limit {
		b.used.Add(-bytes)
		return
	}
	b.raisePeak(u)
	b.mu.Lock()
	b.spare = append(b.spare, s[:0])
	var drop int64
	if len(b.spare) > maxSpares {
		i := 0
		for j, x := range b.spare {
			if cap(x) < cap(b.spare[i]) {
				i = j
			}
		}
		drop = int64(cap(b.spare[i])) * 8
		b.spare = slices.Delete(b.spare, i, i+1)
	}
	b.mu.Unlock()
	if drop > 0 {
		b.Give(drop)
	}
}

// Spared returns the bytes of the spare arrays the budget keeps (see
// Spare) and of the memory owners keep (see Keep), part of Used: Used
// less Spared is what a search's work holds.
func (b *Budget) Spared() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	var n int64
	for _, s := range b.spare {
		n += int64(cap(s)) * 8
	}
	for k := range b.kept {
		n += k.bytes
	}
	return n
}

// Keep marks n bytes of memory the caller has charged, and keeps between
// its uses (such as a search's lists, made again for each layer), as
// kept: still charged, counted as spare (Spared), and let go, when a Take
// finds the budget short (or Trim), by drop, which lets the caller's
// references to the memory go, and its charge given back. The caller
// takes it back before it uses the memory again (Reclaim). drop is called
// with the budget locked: it calls none of the budget's methods.
func (b *Budget) Keep(n int64, drop func()) *Kept {
	k := &Kept{bytes: n, drop: drop}
	b.mu.Lock()
	if b.kept == nil {
		b.kept = map[*Kept]bool{}
	}
	b.kept[k] = true
	b.mu.Unlock()
	return k
}

// Bytes returns the bytes kept.
func (k *Kept) Bytes() int64 { return k.bytes }

// Reclaim takes back memory kept (Keep) for the caller's use, its charge
// the caller's again, and reports true; or reports false if the budget
// let it go (its drop called, its charge given back).
func (b *Budget) Reclaim(k *Kept) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.kept[k] {
		return false
	}
	delete(b.kept, k)
	return true
}

// KeptBytes returns the bytes of k while the budget keeps it (Keep),
// else 0.
func (b *Budget) KeptBytes(k *Kept) int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.kept[k] {
		return 0
	}
	return k.bytes
}

// Trim lets go of the spare arrays and hands the heap's free memory back
// to the system (debug.FreeOSMemory: a collection, then every free page
// returned), for a search between phases, when what the last one let go
// of would otherwise stay with the process: the runtime keeps freed memory
// until the heap reaches twice what is live (GOGC), and a phase that
// makes many short-lived arrays grows the process up to that first. (The
// English Full level's grade held 467 MiB after its fewest-moves search
// over 1.7 million winnable positions, 290 MiB before it.)
func (b *Budget) Trim() {
	b.dropSpares(0)
	debug.FreeOSMemory()
}

// dropSpares lets go of the spare arrays of fewer than n words (all of
// them, and the memory kept by owners, for 0) and returns their bytes,
// asking for a garbage collection so that the heap can use their memory
// again at once: no TakeWords will (the
// English winnable set at two workers, whose layers grow past each
// worker's last bitset, ended at 73-79 MiB of RSS so, 80-82 without; the
// same time).
func (b *Budget) dropSpares(n int) int64 {
	b.mu.Lock()
	var bytes int64
	b.spare = slices.DeleteFunc(b.spare, func(s []uint64) bool {
		if n == 0 || cap(s) < n {
			bytes += int64(cap(s)) * 8
			return true
		}
		return false
	})
	if n == 0 {
		for k := range b.kept {
			k.drop()
			bytes += k.bytes
		}
		clear(b.kept)
	}
	b.mu.Unlock()
	if bytes > 0 {
		b.Give(bytes)
		go runtime.GC()
	}
	return bytes
}

// hugeBytes is the smallest array that Make asks huge pages for. On this
// project's VM a fresh huge page once took from a tenth of a millisecond
// to several to fault in, as the host was busy: with every array of 4 MiB
// or more advised, the English full analysis took 2.6-3.3 s wall and
// 0.7-1.3 s of system time in a busy hour, and 1.96-2.04 s and 0.2 s
// without the advice, the arrays then faulting in as they were first
// written. Measured again with the arrays written in at once (see
// populateBytes), the advice pays: a fresh 64 MiB advised and written a
// word a page took 4-11 ms, against 16-70 ms written in by small pages,
// in a busy hour. Advised from 4 MiB, the English full analysis's process
// took 4.37 s of CPU against 4.48 s, and 4.13 s against 4.41 s, the
// winnable set's 0.75 s against 0.80 s, and 0.80 s against 0.84 s
// (medians of 5 and 8 runs each, alternated, the machine loaded by two
// other searches: each pair within the noise, p 0.03-0.4, all four less),
// perhaps its probes of bitsets of several megabytes missing the TLB less.
const hugeBytes = 4 << 20

// Make returns n zero values, as make does, asking the kernel to back a
// large array with huge pages (see advise and hugeBytes): the tables, sets
// and layers of a search are probed at random, and with 4 KiB pages most
// probes of a table of hundreds of megabytes miss the TLB as well as the
// cache, and every 4 KiB of fresh memory costs a page fault. (When the
// English winnable set was found in hash tables of tens of megabytes, its
// run took 86 thousand page faults and 1.74 s without, 15 thousand and
// 1.42 s with.)
//
// An array of populateBytes or more has its pages written in by the
// kernel at once.
func Make[T any](n int) []T {
	s, _ := makeArray[T](n)
	return s
}

// populateBytes is the smallest array whose pages Make has the kernel
// write in at once (see populate) rather than fault in one by one as they
// are first written. On this project's VM (a Firecracker guest) a page
// fault is the cost: a fresh 64 MiB written a word a page took 350-550 ms
// (22-33 us a 4 KiB page), written in by one madvise 16-70 ms, in a busy
// hour. The English winnable set's process (`pegs explore --winnable-only`,
// about 60 MB faulted in) took 0.14 s of system time before, 0.085 s
// populated (p=0.001, 8 runs each, alternated, on a machine loaded by two
// other searches); the full analysis's 0.45 s and 0.18 s (5 runs each),
// its CPU time 4.61 s and 4.48 s.
const populateBytes = 256 << 10

// makeArray is Make, and reports whether the kernel wrote its pages in.
func makeArray[T any](n int) (s []T, populated bool) {
	s = make([]T, n)
	bytes := uintptr(n) * unsafe.Sizeof(*new(T))
	if bytes < populateBytes {
		return s, false
	}
	p := unsafe.Pointer(unsafe.SliceData(s))
	if bytes >= hugeBytes {
		advise(p, bytes)
	}
	return s, populate(p, bytes)
}

// mapFrom is the fewest bytes TakeMapped maps outside the Go heap:
// smaller arrays come from the heap's spans cheaply enough.
const mapFrom = 1 << 20

// TakeMapped charges n words for what, as Take does, and returns them,
// zero, for an owner that hands them back with GiveMapped, once, and then
// reads them no more. Where they are mapFrom bytes or more they are
// memory mapped for them alone outside the Go heap (advised huge and
// written in at once, as Make's), which GiveMapped hands back to the
// system at once: an array of the heap goes back only once a collection
// has found it free, and its memory stays the process's until the heap
// has shrunk well below its goal (the English Full level's grade, whose
// layers' measures of tens of megabytes each come and go layer by layer,
// held 360-390 MiB from the system for a budget peak of 240-257 MiB).
// An array never given back stays mapped: the owner gives back every
// one, on its errors too. The kernel writes a mapped array's pages in on
// up to workers goroutines at once.
func (b *Budget) TakeMapped(n int, what string, workers int) ([]uint64, error) {
	if err := b.Take(int64(n)*8, what); err != nil {
		return nil, err
	}
	if n*8 >= mapFrom {
		if s := mapWords(n, workers); s != nil {
			b.mu.Lock()
			if b.mapped == nil {
				b.mapped = map[*uint64]bool{}
			}
			b.mapped[unsafe.SliceData(s)] = true
			b.mu.Unlock()
			return s, nil
		}
	}
	return Make[uint64](n), nil
}

// GiveMapped gives back the charge of s, from TakeMapped, and its memory
// to the system if TakeMapped mapped it.
func (b *Budget) GiveMapped(s []uint64) {
	b.used.Add(-int64(len(s)) * 8)
	if len(s) == 0 {
		return
	}
	b.mu.Lock()
	mapped := b.mapped[unsafe.SliceData(s)]
	delete(b.mapped, unsafe.SliceData(s))
	b.mu.Unlock()
	if mapped {
		unmapWords(s)
	}
}

// Replace hands back old bytes and charges new ones in their place without
// checking the limit: for memory that takes the place of as much or more
// already charged, such as a layer coded in place of its keys.
func (b *Budget) Replace(old, new int64) {
	b.Give(old)
	b.used.Add(new)
}
