package memory

// SetCollectAt sets how much Give hands back before it asks for a
// collection.
func (b *Budget) SetCollectAt(n int64) { b.collectAt = n }
