package hint

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strconv"
	"strings"

	"github.com/cespare/xxhash/v2"

	"pegs/engine"
	"pegs/search/internal/kernel"
)

// An oracle file is a text header, a binary header and checksummed
// blocks (see the package doc's "Oracle files").
const (
	oracleMagic = "PEGS-ORACLE 4"
	// oracleVersion is the version in oracleMagic; files of versions 1 to
	// 3 carried no checksums and are refused with the command that
	// rebuilds them.
	oracleVersion = 4
	// oracleBlock is the payload bytes of a block Write writes.
	oracleBlock = 64 << 10
	// maxOracleBlock bounds the block size a file may name: a block is
	// read whole before its checksum is checked.
	maxOracleBlock = 1 << 20
	// maxHeaderLine bounds a line of the text header.
	maxHeaderLine = 4096
	// binaryHeader is the bytes of the binary header: file length,
	// payload length, block size and the header's XXH64.
	binaryHeader = 8 + 8 + 4 + 8
)

// ErrOracle reports an oracle file that is not for the board, of an old
// format, or damaged.
var ErrOracle = errors.New("bad oracle file")

// ErrOracleCorrupt reports an oracle file whose bytes are not as written:
// a checksum that does not match, a file cut short or with bytes after
// its end, or tables that do not decode. errors.Is(err, ErrOracle) holds
// for it too. The message names the block and the byte offset.
var ErrOracleCorrupt = errors.New("corrupt oracle file")

// corruptError is a damaged oracle file, at a block and byte offset.
type corruptError struct {
	block  int // -1: the header
	offset int64
	what   string
}

func (e *corruptError) Error() string {
	where := "header"
	if e.block >= 0 {
		where = fmt.Sprintf("block %d", e.block)
	}
	return fmt.Sprintf("%v: %s at byte %d: %s", ErrOracleCorrupt, where, e.offset, e.what)
}

func (e *corruptError) Is(target error) bool {
	return target == ErrOracleCorrupt || target == ErrOracle
}

// Write stores the oracle (see the package doc's "Oracle files").
func (o *Oracle) Write(w io.Writer) error { return o.write(w, oracleBlock) }

// write stores the oracle in blocks of up to size payload bytes.
func (o *Oracle) write(w io.Writer, size int) error {
	payload := o.payload()
	text := fmt.Appendf(nil, "%s\n%s\n%d\n%s\n%s\n", oracleMagic, o.board.Name(), o.board.Holes(), o.board.Line(o.start), o.board.FormatGoal(o.goal))
	nblocks := (len(payload) + size - 1) / size
	hdr := binary.LittleEndian.AppendUint64(text, uint64(len(text)+binaryHeader+len(payload)+8*nblocks))
	hdr = binary.LittleEndian.AppendUint64(hdr, uint64(len(payload)))
	hdr = binary.LittleEndian.AppendUint32(hdr, uint32(size))
	hdr = binary.LittleEndian.AppendUint64(hdr, xxhash.Sum64(hdr))
	bw := bufio.NewWriter(w)
	bw.Write(hdr)
	for i := range nblocks {
		data := payload[i*size : min(len(payload), (i+1)*size)]
		bw.Write(data)
		bw.Write(binary.LittleEndian.AppendUint64(nil, blockSum(i, data)))
	}
	return bw.Flush()
}

// blockSum is the checksum of block i: the XXH64 of its index (4 bytes,
// little-endian) and its payload, so that blocks swapped do not pass.
func blockSum(i int, data []byte) uint64 {
	var d xxhash.Digest
	d.Reset()
	d.Write(binary.LittleEndian.AppendUint32(nil, uint32(i)))
	d.Write(data)
	return d.Sum64()
}

// payload codes the tables: per peg count the gaps between successive
// ranks as varints, first for the goal and then for the one-peg orbits
// beyond it, then the fewest table.
func (o *Oracle) payload() []byte {
	var bw bytes.Buffer
	var buf [binary.MaxVarintLen64]byte
	put := func(x uint64) {
		n := binary.PutUvarint(buf[:], x)
		bw.Write(buf[:n])
	}
	for _, table := range []map[int][]uint64{o.ranks, o.extra} {
		pegs := make([]int, 0, len(table))
		for k := range table {
			pegs = append(pegs, k)
		}
		slices.Sort(pegs)
		put(uint64(len(pegs)))
		for _, k := range pegs {
			r := table[k]
			put(uint64(k))
			put(uint64(len(r)))
			prev := uint64(0)
			for _, x := range r {
				put(x - prev)
				prev = x
			}
		}
	}
	// The fewest table: the least peg count it holds (0: none), then per
	// peg count and per fewest, the gaps between ranks.
	put(uint64(o.fewestFrom))
	if o.fewest != nil {
		pegs := make([]int, 0, len(o.fewest))
		for k := range o.fewest {
			pegs = append(pegs, k)
		}
		slices.Sort(pegs)
		put(uint64(len(pegs)))
		for _, k := range pegs {
			l := o.fewest[k]
			put(uint64(k))
			put(uint64(len(l.lists)))
			for i, list := range l.lists {
				put(uint64(l.vals[i]))
				put(uint64(list.Len()))
				put(uint64(len(list.Code())))
				bw.Write(list.Code())
			}
		}
	}
	return bw.Bytes()
}

// readLine reads a line of the text header, of at most maxHeaderLine
// bytes, without its newline.
func readLine(br *bufio.Reader, text *bytes.Buffer) (string, bool) {
	start := text.Len()
	for text.Len()-start <= maxHeaderLine {
		c, err := br.ReadByte()
		if err != nil {
			return "", false
		}
		text.WriteByte(c)
		if c == '\n' {
			return string(text.Bytes()[start : text.Len()-1]), true
		}
	}
	return "", false
}

// LoadOracle reads an oracle written by Write for board b. A file that is
// damaged is refused with an error for which errors.Is(err,
// ErrOracleCorrupt) holds; one of another board, of an old format or not
// an oracle file at all, with ErrOracle. Sizes come from the header and
// are checked before anything is allocated, and the tables grow with the
// bytes read, never with the counts a file claims.
func LoadOracle(r io.Reader, b *engine.Board) (*Oracle, error) {
	br := bufio.NewReader(r)
	var text bytes.Buffer
	magic, ok := readLine(br, &text)
	version, err := strconv.Atoi(strings.TrimPrefix(magic, "PEGS-ORACLE "))
	if !ok || !strings.HasPrefix(magic, "PEGS-ORACLE ") || err != nil {
		return nil, fmt.Errorf("%w: not an oracle file", ErrOracle)
	}
	var hdr [4]string
	for i := range hdr {
		if hdr[i], ok = readLine(br, &text); !ok {
			return nil, &corruptError{block: -1, offset: int64(text.Len()), what: "the text header is cut short or has a line too long"}
		}
	}
	if version < oracleVersion {
		return nil, oldOracle(version, hdr)
	}
	if version > oracleVersion {
		return nil, fmt.Errorf("%w: format %d, newer than this pegs reads (%d)", ErrOracle, version, oracleVersion)
	}
	var bin [binaryHeader]byte
	if _, err := io.ReadFull(br, bin[:]); err != nil {
		return nil, &corruptError{block: -1, offset: int64(text.Len()), what: "the file ends inside the header"}
	}
	text.Write(bin[:binaryHeader-8])
	hdrLen := int64(text.Len()) + 8
	if xxhash.Sum64(text.Bytes()) != binary.LittleEndian.Uint64(bin[binaryHeader-8:]) {
		return nil, &corruptError{block: -1, offset: 0, what: "checksum mismatch"}
	}
	fileLen, payLen := binary.LittleEndian.Uint64(bin[0:]), binary.LittleEndian.Uint64(bin[8:])
	size := uint64(binary.LittleEndian.Uint32(bin[16:]))
	if size == 0 || size > maxOracleBlock || payLen > 1<<50 {
		return nil, &corruptError{block: -1, offset: 0, what: fmt.Sprintf("block size %d or payload length %d out of range", size, payLen)}
	}
	if nblocks := (payLen + size - 1) / size; fileLen != uint64(hdrLen)+payLen+8*nblocks {
		return nil, &corruptError{block: -1, offset: 0, what: fmt.Sprintf("file length %d does not match a payload of %d bytes in blocks of %d", fileLen, payLen, size)}
	}
	if st, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() != int64(fileLen) {
			return nil, &corruptError{block: -1, offset: 0, what: fmt.Sprintf("the file has %d bytes, its header says %d", fi.Size(), fileLen)}
		}
	}
	if holes, err := strconv.Atoi(hdr[1]); err != nil || holes != b.Holes() || hdr[0] != b.Name() {
		return nil, fmt.Errorf("%w: it is for board %s (%s holes), not %s", ErrOracle, hdr[0], hdr[1], b.Name())
	}
	start, err := b.ParsePosition(hdr[2])
	if err != nil {
		return nil, fmt.Errorf("%w: start: %v", ErrOracle, err)
	}
	goal, err := b.ParseGoal(hdr[3])
	if err != nil {
		return nil, fmt.Errorf("%w: goal: %v", ErrOracle, err)
	}
	o := &Oracle{board: b, start: start, goal: goal, group: b.GameSymmetry(start, goal),
		anyGroup: b.GameSymmetry(start, engine.Goal{Kind: engine.OnePeg})}
	d := &decoder{r: br, size: int(size), left: int64(payLen), next: hdrLen, fileLen: int64(fileLen), block: -1}
	if err := o.decode(d); err != nil {
		return nil, err
	}
	if d.pos != len(d.buf) || d.left != 0 {
		return nil, d.fail("bytes after the tables")
	}
	if _, err := br.ReadByte(); err != io.EOF {
		return nil, &corruptError{block: d.block, offset: int64(fileLen), what: fmt.Sprintf("bytes after the end the header names (%d bytes)", fileLen)}
	}
	return o, nil
}

// oldOracle is the error for a file of an older format, without checksums:
// it names the command that rebuilds it.
func oldOracle(version int, hdr [4]string) error {
	board := hdr[0]
	if _, err := engine.Lookup(board); err != nil {
		board = "@" + board
	}
	return fmt.Errorf("%w: format %d, from before oracle files carried checksums; rebuild it: pegs oracle --board %s --position '%s' --goal %s --out FILE",
		ErrOracle, version, board, hdr[2], hdr[3])
}

// decoder reads an oracle file's payload, checking each block's checksum
// before handing out its bytes.
type decoder struct {
	r       *bufio.Reader
	size    int   // payload bytes of a full block
	left    int64 // payload bytes in the blocks not read yet
	next    int64 // file offset of the next block
	fileLen int64
	block   int   // the block in buf (-1 before the first)
	start   int64 // file offset of that block
	buf     []byte
	pos     int
}

// fail returns a corruptError at the byte d reads next.
func (d *decoder) fail(what string) error {
	return &corruptError{block: d.block, offset: d.start + int64(d.pos), what: what}
}

// remaining returns the payload bytes not read yet.
func (d *decoder) remaining() int64 { return d.left + int64(len(d.buf)-d.pos) }

// load reads the next block and checks its checksum.
func (d *decoder) load() error {
	if d.left == 0 {
		return io.EOF
	}
	n := int(min(int64(d.size), d.left))
	d.block++
	d.start, d.pos = d.next, 0
	if cap(d.buf) < n+8 {
		d.buf = make([]byte, n+8)
	}
	buf := d.buf[:n+8]
	d.buf = d.buf[:0]
	if _, err := io.ReadFull(d.r, buf); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return &corruptError{block: d.block, offset: d.start, what: fmt.Sprintf("the file ends inside the block (the header says %d bytes)", d.fileLen)}
		}
		return fmt.Errorf("%w: reading block %d: %w", ErrOracle, d.block, err)
	}
	if blockSum(d.block, buf[:n]) != binary.LittleEndian.Uint64(buf[n:]) {
		return &corruptError{block: d.block, offset: d.start, what: "checksum mismatch"}
	}
	d.buf = buf[:n]
	d.left -= int64(n)
	d.next += int64(n) + 8
	return nil
}

// ReadByte returns the payload's next byte.
func (d *decoder) ReadByte() (byte, error) {
	for d.pos == len(d.buf) {
		if err := d.load(); err != nil {
			return 0, err
		}
	}
	d.pos++
	return d.buf[d.pos-1], nil
}

// Read reads the payload's next bytes.
func (d *decoder) Read(p []byte) (int, error) {
	for d.pos == len(d.buf) {
		if err := d.load(); err != nil {
			return 0, err
		}
	}
	n := copy(p, d.buf[d.pos:])
	d.pos += n
	return n, nil
}

// uvarint reads a varint of the payload, what naming it for an error.
func (d *decoder) uvarint(what string) (uint64, error) {
	x, err := binary.ReadUvarint(d)
	if err != nil {
		if errors.Is(err, ErrOracle) {
			return 0, err
		}
		return 0, d.fail("the tables end inside " + what)
	}
	return x, nil
}

// decode reads the tables of the payload.
func (o *Oracle) decode(d *decoder) error {
	b := o.board
	// ranks reads n gap-coded ranks of positions of k pegs.
	ranks := func(k uint64) ([]uint64, error) {
		n, err := d.uvarint("a layer's size")
		if err != nil {
			return nil, err
		}
		if k > uint64(b.Holes()) || n > kernel.Ranks(b.Holes(), int(k)) || int64(n) > d.remaining() {
			return nil, d.fail(fmt.Sprintf("layer of %d pegs: %d positions", k, n))
		}
		// Grow with the data read, not with the size the file claims.
		r := make([]uint64, 0, min(n, 1<<16))
		prev := uint64(0)
		for range n {
			gap, err := d.uvarint("a layer")
			if err != nil {
				return nil, err
			}
			if prev+gap < prev || prev+gap >= kernel.Ranks(b.Holes(), int(k)) || gap == 0 && len(r) > 0 {
				return nil, d.fail(fmt.Sprintf("layer of %d pegs: rank out of range", k))
			}
			prev += gap
			r = append(r, prev)
		}
		return r, nil
	}
	table := func() (map[int][]uint64, error) {
		t := map[int][]uint64{}
		nl, err := d.uvarint("a table's layer count")
		if err != nil {
			return nil, err
		}
		if nl > uint64(b.Holes())+1 {
			return nil, d.fail(fmt.Sprintf("%d layers", nl))
		}
		for range nl {
			k, err := d.uvarint("a layer's peg count")
			if err != nil {
				return nil, err
			}
			if _, dup := t[int(k)]; dup || k > uint64(b.Holes()) {
				return nil, d.fail(fmt.Sprintf("layer of %d pegs twice or out of range", k))
			}
			if t[int(k)], err = ranks(k); err != nil {
				return nil, err
			}
		}
		return t, nil
	}
	var err error
	if o.ranks, err = table(); err != nil {
		return err
	}
	o.direct()
	if o.extra, err = table(); err != nil {
		return err
	}
	if o.goal.Kind != engine.OnePegAt {
		if len(o.extra) > 0 {
			return d.fail("a one-peg table for a goal that is not a hole")
		}
		o.extra = nil
	}
	return o.readFewest(d)
}

// readFewest reads the fewest table the payload ends with.
func (o *Oracle) readFewest(d *decoder) error {
	holes := uint64(o.board.Holes())
	from, err := d.uvarint("the fewest table")
	if err != nil {
		return err
	}
	if from > holes {
		return d.fail(fmt.Sprintf("fewest table from %d pegs", from))
	}
	if from == 0 {
		return nil
	}
	o.fewest, o.fewestFrom = map[int]*fewestLayer{}, int(from)
	nl, err := d.uvarint("the fewest table's layer count")
	if err != nil {
		return err
	}
	if nl > holes+1 {
		return d.fail(fmt.Sprintf("fewest table of %d layers", nl))
	}
	for range nl {
		k, err := d.uvarint("a fewest layer")
		if err != nil {
			return err
		}
		if k < from || k > holes || o.fewest[int(k)] != nil {
			return d.fail(fmt.Sprintf("fewest layer of %d pegs", k))
		}
		nv, err := d.uvarint("a fewest layer")
		if err != nil {
			return err
		}
		if nv > k {
			return d.fail(fmt.Sprintf("fewest layer of %d pegs: %d values", k, nv))
		}
		l := &fewestLayer{}
		for range nv {
			v, err := d.uvarint("a fewest value")
			if err != nil {
				return err
			}
			if v < 3 || v > k || len(l.vals) > 0 && v <= uint64(l.vals[len(l.vals)-1]) {
				return d.fail(fmt.Sprintf("fewest layer of %d pegs: value %d", k, v))
			}
			n, err := d.uvarint("a fewest list")
			if err != nil {
				return err
			}
			size, err := d.uvarint("a fewest list")
			if err != nil {
				return err
			}
			if n > kernel.Ranks(o.board.Holes(), int(k)) || size < n || size/10 > n || int64(size) > d.remaining() {
				return d.fail(fmt.Sprintf("fewest %d of %d pegs: list of %d positions in %d bytes", v, k, n, size))
			}
			// Grow with the data read, not with the size the file claims.
			var data bytes.Buffer
			if _, err := io.CopyN(&data, d, int64(size)); err != nil {
				if errors.Is(err, ErrOracle) {
					return err
				}
				return d.fail("the tables end inside a fewest list")
			}
			list, err := kernel.DecodeRankList(int(n), kernel.Ranks(o.board.Holes(), int(k)), data.Bytes())
			if err != nil {
				return d.fail(fmt.Sprintf("fewest %d of %d pegs: %v", v, k, err))
			}
			l.vals = append(l.vals, uint8(v))
			l.lists = append(l.lists, list)
		}
		o.fewest[int(k)] = l
	}
	return nil
}
