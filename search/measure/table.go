package measure

import (
	"math/bits"

	"pegs/engine"
	"pegs/search/internal/key"
)

// nodeTable maps canonical positions to their nodes: open addressing over
// (key, index) slots, the nodes in fixed-size chunks in the order they were
// added, so that growing never copies them.
type nodeTable struct {
	slots  []nodeSlot
	chunks [][]levelNode
	n      int
	shift  uint
}

const nodeChunk = 1 << 12

func (t *nodeTable) node(idx uint32) *levelNode {
	return &t.chunks[idx/nodeChunk][idx%nodeChunk]
}

type nodeSlot struct {
	key engine.Position
	idx uint32
}

func newNodeTable() *nodeTable {
	t := &nodeTable{}
	t.resize(1 << 10)
	return t
}

func (t *nodeTable) resize(size int) {
	old := t.slots
	t.slots = make([]nodeSlot, size)
	t.shift = uint(64 - bits.Len(uint(size)-1))
	for _, sl := range old {
		if sl.key != 0 {
			j := t.slot(sl.key)
			for t.slots[j].key != 0 {
				j = (j + 1) & (size - 1)
			}
			t.slots[j] = sl
		}
	}
}

func (t *nodeTable) slot(k engine.Position) int { return int((uint64(k) * key.MixMul) >> t.shift) }

// find returns the node of k, or nil.
func (t *nodeTable) find(k engine.Position) *levelNode {
	mask := len(t.slots) - 1
	for i := t.slot(k); ; i = (i + 1) & mask {
		switch t.slots[i].key {
		case k:
			return t.node(t.slots[i].idx)
		case 0:
			return nil
		}
	}
}

// get returns the node of k, adding a zero node if there is none; fresh
// reports the addition.
func (t *nodeTable) get(k engine.Position) (n *levelNode, fresh bool) {
	mask := len(t.slots) - 1
	i := t.slot(k)
	for ; t.slots[i].key != 0; i = (i + 1) & mask {
		if t.slots[i].key == k {
			return t.node(t.slots[i].idx), false
		}
	}
	if 2*(t.n+1) > len(t.slots) {
		t.resize(2 * len(t.slots))
		return t.get(k)
	}
	idx := uint32(t.n)
	if idx%nodeChunk == 0 {
		t.chunks = append(t.chunks, make([]levelNode, nodeChunk))
	}
	t.slots[i] = nodeSlot{k, idx}
	t.n++
	return t.node(idx), true
}
