// A module with a function but no ktc.kernel: nothing for ktc-compile.
func.func @helper(%x: i32) {
  return
}
