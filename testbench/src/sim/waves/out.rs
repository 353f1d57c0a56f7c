//! A waveform file's output buffer, and the value-change lines formatted straight into it.
//!
//! A value change used to be formatted byte by byte into a small array on the stack and then
//! copied into a `BufWriter`; the copy read back the bytes just stored one at a time (a vector
//! load over single-byte stores stalls the store forwarding) and was a tenth of a recording
//! run. [`WaveOut`] hands out the next bytes of its buffer instead.

use crate::paths::with_path;
use std::fs::File;
use std::io::{self, Write};
use std::path::Path;

/// Buffered output of a waveform: bytes gather in a buffer of [`super::WRITE_BUFFER`] bytes,
/// written to the inner writer when full, on [`Write::flush`] and when dropped.
pub(super) struct WaveOut<W: Write> {
    /// The buffer, allocated whole once (no byte is cleared before it is written).
    buf: Box<[u8]>,
    /// Bytes of `buf` in use.
    used: usize,
    inner: W,
}

impl WaveOut<File> {
    /// Creates the file `path` (and its directory).
    pub(super) fn create(path: &Path) -> io::Result<Self> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| with_path(e, dir))?;
        }
        let file = File::create(path).map_err(|e| with_path(e, path))?;
        Ok(Self::new(file))
    }
}

impl<W: Write> WaveOut<W> {
    /// Output to `inner`.
    pub(super) fn new(inner: W) -> Self {
        Self {
            buf: vec![0; super::WRITE_BUFFER].into_boxed_slice(),
            used: 0,
            inner,
        }
    }

    /// Appends `n` bytes (at most the buffer's size), which `fill` writes, every one of them.
    fn put(&mut self, n: usize, fill: impl FnOnce(&mut [u8])) -> io::Result<()> {
        if self.used + n > self.buf.len() {
            self.write_buf()?;
        }
        let at = self.used;
        fill(&mut self.buf[at..at + n]);
        self.used += n;
        Ok(())
    }

    /// Writes the buffer to the inner writer and empties it.
    fn write_buf(&mut self) -> io::Result<()> {
        self.inner.write_all(&self.buf[..self.used])?;
        self.used = 0;
        Ok(())
    }

    /// The inner writer (everything written so far is in it after a [`Write::flush`]).
    #[cfg(test)]
    fn inner(&self) -> &W {
        &self.inner
    }
}

impl<W: Write> Write for WaveOut<W> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        if self.used + data.len() > self.buf.len() {
            self.write_buf()?;
        }
        if data.len() >= self.buf.len() {
            return self.inner.write(data);
        }
        self.buf[self.used..self.used + data.len()].copy_from_slice(data);
        self.used += data.len();
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.write_buf()?;
        self.inner.flush()
    }
}

impl<W: Write> Drop for WaveOut<W> {
    /// Writes what is left, as `BufWriter` does (errors are lost: call
    /// [`Write::flush`] to see them).
    fn drop(&mut self) {
        let _ = self.write_buf();
    }
}

/// Writes `#ps` and a newline as the `vcd` crate's `timestamp` does, without `fmt`.
pub(super) fn write_timestamp<W: Write>(out: &mut WaveOut<W>, ps: u64) -> io::Result<()> {
    let digits = ps.checked_ilog10().map_or(1, |l| l as usize + 1);
    out.put(digits + 2, |b| {
        b[0] = b'#';
        let mut v = ps;
        for c in b[1..=digits].iter_mut().rev() {
            *c = b'0' + (v % 10) as u8;
            v /= 10;
        }
        b[digits + 1] = b'\n';
    })
}

/// Writes value `v` of a `w`-bit variable with id `id` (ending in its newline) as the `vcd`
/// crate does (`1!`, or `b0101 !` with every bit; x bits if `v` does not fit), without
/// allocating.
pub(super) fn write_change<W: Write>(
    out: &mut WaveOut<W>,
    v: u64,
    w: usize,
    id: &[u8],
) -> io::Result<()> {
    let n = if w == 1 { 1 } else { w + 2 };
    out.put(n + id.len(), |b| {
        if w == 1 {
            b[0] = b'0' + (v & 1) as u8;
        } else {
            b[0] = b'b';
            vector_digits(&mut b[1..=w], v, w);
            b[w + 1] = b' ';
        }
        // (Byte by byte: an id is a few bytes, shorter than a call to copy them.)
        for (t, c) in b[n..].iter_mut().zip(id) {
            *t = *c;
        }
    })
}

/// The eight digits of every byte value, most significant bit first.
const BYTE_DIGITS: [[u8; 8]; 256] = {
    let mut t = [[b'0'; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        while k < 8 {
            if b >> (7 - k) & 1 == 1 {
                t[b][k] = b'1';
            }
            k += 1;
        }
        b += 1;
    }
    t
};

/// Writes the `w` binary digits of `v` into `digits` (most significant first), all `x` if
/// `v` does not fit in `w` bits.
fn vector_digits(digits: &mut [u8], v: u64, w: usize) {
    if w < 64 && v >> w != 0 {
        digits.fill(b'x');
        return;
    }
    // The leading w mod 8 digits one by one, then a byte's eight at a time.
    let lead = w % 8;
    for (k, c) in digits[..lead].iter_mut().enumerate() {
        *c = b'0' + (v >> (w - 1 - k) & 1) as u8;
    }
    for (i, chunk) in digits[lead..].chunks_exact_mut(8).enumerate() {
        let shift = w - lead - 8 * (i + 1);
        chunk.copy_from_slice(&BYTE_DIGITS[(v >> shift & 0xFF) as usize]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vcd::{IdCode, Value};

    /// What `write` wrote through a [`WaveOut`] over a vector.
    fn written(write: impl FnOnce(&mut WaveOut<Vec<u8>>) -> io::Result<()>) -> Vec<u8> {
        let mut out = WaveOut::new(Vec::new());
        write(&mut out).unwrap();
        out.flush().unwrap();
        out.inner().clone()
    }

    /// The same bytes as the `vcd` crate's `change_scalar` / `change_vector`, at widths that
    /// are and are not multiples of 8 (the digits go a byte at a time); catches a byte table
    /// indexed from the wrong end or a lead of `w / 8` digits.
    #[test]
    fn changes_are_written_as_the_vcd_crate_writes_them() {
        let id = IdCode::from(37u32);
        for (v, w) in [
            (1, 1),
            (0, 1),
            (5, 4),
            (0, 3),
            (u64::MAX, 64),
            (9, 3),
            (1 << 63, 64),
            (0x1F3, 12),
            (0xDEAD_BEEF, 32),
            (0x5A5A_5A5A_5A5A_5A5A, 63),
            (1 << 63, 63),
            (0x15, 5),
        ] {
            let ours = written(|o| write_change(o, v, w, format!("{id}\n").as_bytes()));
            let mut theirs = vcd::Writer::new(Vec::new());
            if w == 1 {
                let b = if v & 1 == 1 { Value::V1 } else { Value::V0 };
                theirs.change_scalar(id, b).unwrap();
            } else {
                let x = w < 64 && v >> w != 0;
                let bits = (0..w).rev().map(|b| match (x, v >> b & 1) {
                    (true, _) => Value::X,
                    (false, 1) => Value::V1,
                    _ => Value::V0,
                });
                theirs.change_vector(id, bits).unwrap();
            }
            assert_eq!(ours, theirs.writer().clone(), "{v:#x} in {w} bits");
        }
    }

    /// Timestamps as the `vcd` crate writes them, from one digit to twenty; catches digits
    /// written least significant first or a lost zero.
    #[test]
    fn timestamps_are_written_as_the_vcd_crate_writes_them() {
        for ps in [0, 7, 9, 10, 99, 100, 1000, 123_456_789, u64::MAX] {
            let ours = written(|o| write_timestamp(o, ps));
            let mut theirs = vcd::Writer::new(Vec::new());
            theirs.timestamp(ps).unwrap();
            assert_eq!(ours, theirs.writer().clone(), "{ps}");
        }
    }

    /// Bytes go out in order across buffer refills: many changes and a piece larger than the
    /// buffer come out as written one after another; catches a refill that drops or reorders
    /// the buffer's content.
    #[test]
    fn the_buffer_keeps_the_order_across_refills() {
        let big = vec![b'z'; super::super::WRITE_BUFFER + 3];
        let mut expected = Vec::new();
        let ours = written(|o| {
            for k in 0..100_000u64 {
                write_change(o, k, 32, b"!\n")?;
                expected.extend_from_slice(format!("b{k:032b} !\n").as_bytes());
                if k == 50_000 {
                    o.write_all(&big)?;
                    expected.extend_from_slice(&big);
                }
            }
            Ok(())
        });
        assert!(
            ours == expected,
            "{} bytes, {} expected",
            ours.len(),
            expected.len()
        );
    }
}
