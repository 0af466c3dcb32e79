// Package twin lets an internal error type be found, by errors.As, as its
// public twin: a struct type of package search declared with the same
// fields (search.MemoryError for memory.Error, search.DiskError for
// spill.NoSpaceError), so that go doc shows the public type's fields while
// the internal packages, which search imports, make the errors.
//
// The twin is the same error, not a copy: errors.As sets the target to the
// error's own pointer, converted, so that a caller setting a field (the
// command that names its memory flag in MemoryError.Setting) changes the
// error's message.
package twin

import "reflect"

// As sets *target to e if target points to a pointer to a struct type
// whose underlying type is e's (a pointer to a struct), and reports
// whether it did. An error type's As method calls it.
func As(e, target any) bool {
	t := reflect.ValueOf(target)
	if t.Kind() != reflect.Pointer || t.IsNil() {
		return false
	}
	dst := t.Elem()
	src := reflect.ValueOf(e)
	if dst.Kind() != reflect.Pointer || src.Kind() != reflect.Pointer || dst.Type() == src.Type() ||
		dst.Type().Elem().Kind() != reflect.Struct || !src.Type().ConvertibleTo(dst.Type()) {
		return false
	}
	dst.Set(src.Convert(dst.Type()))
	return true
}
