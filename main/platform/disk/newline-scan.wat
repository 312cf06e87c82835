;; Finds newlines (0x0A) in a range of this module's memory, 16 bytes at a time (SIMD): the scan
;; that counts a huge file's lines for read_file (newline-scan.ts). newline-scan-wasm.ts holds the
;; compiled bytes; newline-scan.test.ts compiles this file again (wabt) and fails when they differ.
;;
;; nth(ptr, len, n): the offset from ptr of the n-th newline (n >= 1) in [ptr, ptr + len), and `seen`
;; set to n; or -1 when the range holds fewer, `seen` then set to how many it holds.
;;
;; utf8(ptr, len): how many bytes of [ptr, ptr + len) continue a UTF-8 character (10xxxxxx), and
;; `astral` set to how many start a 4-byte one (11110xxx and above): a search hit's column in a long
;; line (search-line-window.ts countUtf8 says the same 4 bytes at a time).
(module
  (memory (export "memory") 1)
  (global $seen (export "seen") (mut i32) (i32.const 0))
  (global $astral (export "astral") (mut i32) (i32.const 0))
  (func (export "nth") (param $ptr i32) (param $len i32) (param $n i32) (result i32)
    (local $end i32) (local $p i32) (local $count i32) (local $mask i32) (local $bits i32) (local $nl v128)
    (local.set $end (i32.add (local.get $ptr) (local.get $len)))
    (local.set $p (local.get $ptr))
    (local.set $nl (i8x16.splat (i32.const 10)))
    (block $vdone
      (loop $v
        (br_if $vdone (i32.gt_u (i32.add (local.get $p) (i32.const 16)) (local.get $end)))
        (local.set $mask (i8x16.bitmask (i8x16.eq (v128.load (local.get $p)) (local.get $nl))))
        (local.set $bits (i32.popcnt (local.get $mask)))
        (if (i32.ge_u (i32.add (local.get $count) (local.get $bits)) (local.get $n))
          (then
            (block $found
              (loop $drop
                (br_if $found (i32.eq (i32.add (local.get $count) (i32.const 1)) (local.get $n)))
                (local.set $mask (i32.and (local.get $mask) (i32.sub (local.get $mask) (i32.const 1))))
                (local.set $count (i32.add (local.get $count) (i32.const 1)))
                (br $drop)))
            (global.set $seen (local.get $n))
            (return (i32.sub (i32.add (local.get $p) (i32.ctz (local.get $mask))) (local.get $ptr)))))
        (local.set $count (i32.add (local.get $count) (local.get $bits)))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $v)))
    (block $done
      (loop $s
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (if (i32.eq (i32.load8_u (local.get $p)) (i32.const 10))
          (then
            (local.set $count (i32.add (local.get $count) (i32.const 1)))
            (if (i32.eq (local.get $count) (local.get $n))
              (then
                (global.set $seen (local.get $n))
                (return (i32.sub (local.get $p) (local.get $ptr)))))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $s)))
    (global.set $seen (local.get $count))
    (i32.const -1))
  (func (export "utf8") (param $ptr i32) (param $len i32) (result i32)
    (local $end i32) (local $p i32) (local $cont i32) (local $four i32) (local $v v128) (local $byte i32)
    (local.set $end (i32.add (local.get $ptr) (local.get $len)))
    (local.set $p (local.get $ptr))
    (block $vdone
      (loop $v
        (br_if $vdone (i32.gt_u (i32.add (local.get $p) (i32.const 16)) (local.get $end)))
        (local.set $v (v128.load (local.get $p)))
        (local.set $cont (i32.add (local.get $cont) (i32.popcnt (i8x16.bitmask
          (i8x16.eq (v128.and (local.get $v) (i8x16.splat (i32.const 0xc0))) (i8x16.splat (i32.const 0x80)))))))
        (local.set $four (i32.add (local.get $four) (i32.popcnt (i8x16.bitmask
          (i8x16.ge_u (local.get $v) (i8x16.splat (i32.const 0xf0)))))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $v)))
    (block $done
      (loop $s
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $byte (i32.load8_u (local.get $p)))
        (if (i32.eq (i32.and (local.get $byte) (i32.const 0xc0)) (i32.const 0x80))
          (then (local.set $cont (i32.add (local.get $cont) (i32.const 1)))))
        (if (i32.ge_u (local.get $byte) (i32.const 0xf0))
          (then (local.set $four (i32.add (local.get $four) (i32.const 1)))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $s)))
    (global.set $astral (local.get $four))
    (local.get $cont)))
