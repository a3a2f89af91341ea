// A QR code encoder (ISO/IEC 18004), written for this project: byte mode, error correction
// level M (L when a text is too long for M), versions 1-40, the eight masks scored by the
// standard's penalty rules. window.fsQR.svg(text) draws a link as an SVG image with its
// quiet zone; fsQR.matrix(text, mask) gives the modules (rows of 0/1) for the tests, which
// compare them with an independent encoder's.
"use strict";
(function () {
  // Per version 1-40: error correction codewords per block, and the number of blocks.
  const ECC = {
    L: [7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28, 28, 28,
      30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
    M: [10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28,
      28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28],
  };
  const BLOCKS = {
    L: [1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12, 12, 13,
      14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25],
    M: [1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23,
      25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49],
  };
  const LEVEL_BITS = { L: 1, M: 0 };

  // ---- GF(256) with the polynomial x^8 + x^4 + x^3 + x^2 + 1, and Reed-Solomon ------------
  const EXP = new Uint8Array(512);
  const LOG = new Uint8Array(256);
  for (let i = 0, x = 1; i < 255; i++) {
    EXP[i] = x;
    LOG[x] = i;
    x <<= 1;
    if (x & 0x100) x ^= 0x11d;
  }
  for (let i = 255; i < 512; i++) EXP[i] = EXP[i - 255];
  const mul = (a, b) => (a && b ? EXP[LOG[a] + LOG[b]] : 0);

  function generator(degree) {  // (x - α^0)(x - α^1)…, highest power first, leading 1 dropped
    let g = [1];
    for (let i = 0; i < degree; i++) {
      const next = new Array(g.length + 1).fill(0);
      for (let j = 0; j < g.length; j++) {
        next[j] ^= g[j];
        next[j + 1] ^= mul(g[j], EXP[i]);
      }
      g = next;
    }
    return g.slice(1);
  }

  function remainder(data, gen) {
    const rem = new Array(gen.length).fill(0);
    for (const byte of data) {
      const factor = byte ^ rem.shift();
      rem.push(0);
      for (let i = 0; i < gen.length; i++) rem[i] ^= mul(gen[i], factor);
    }
    return rem;
  }

  // ---- Capacity -----------------------------------------------------------------------------
  function rawModules(v) {  // modules left for data and error correction
    let r = (16 * v + 128) * v + 64;
    if (v >= 2) {
      const n = Math.floor(v / 7) + 2;
      r -= (25 * n - 10) * n - 55;
      if (v >= 7) r -= 36;
    }
    return r;
  }
  const dataCodewords = (v, lvl) => Math.floor(rawModules(v) / 8)
    - ECC[lvl][v - 1] * BLOCKS[lvl][v - 1];

  function choose(length) {
    for (const lvl of ["M", "L"]) {
      for (let v = 1; v <= 40; v++) {
        const bits = 4 + (v <= 9 ? 8 : 16) + 8 * length;
        if (bits <= dataCodewords(v, lvl) * 8) return { v, lvl };
      }
    }
    throw new Error(`a text of ${length} bytes is too long for a QR code`);
  }

  // ---- Codewords ----------------------------------------------------------------------------
  // The data codewords of a byte-mode segment: mode, count, bytes, terminator, pad codewords.
  function dataWords(bytes, v, lvl) {
    const bits = [];
    const put = (value, n) => { for (let i = n - 1; i >= 0; i--) bits.push((value >>> i) & 1); };
    put(0b0100, 4);
    put(bytes.length, v <= 9 ? 8 : 16);
    bytes.forEach((b) => put(b, 8));
    const capacity = dataCodewords(v, lvl) * 8;
    put(0, Math.min(4, capacity - bits.length));
    put(0, (8 - (bits.length % 8)) % 8);
    for (let pad = 0xec; bits.length < capacity; pad ^= 0xec ^ 0x11) put(pad, 8);
    const data = [];
    for (let i = 0; i < bits.length; i += 8) {
      data.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));
    }
    return data;
  }

  // The data codewords in blocks, each with its error correction, interleaved.
  function codewords(data, v, lvl) {
    // Blocks: the short ones first, the long ones one codeword longer.
    const nBlocks = BLOCKS[lvl][v - 1];
    const ecLen = ECC[lvl][v - 1];
    const shortLen = Math.floor(data.length / nBlocks);
    const nLong = data.length % nBlocks;
    const gen = generator(ecLen);
    const blocks = [];
    for (let b = 0, at = 0; b < nBlocks; b++) {
      const len = shortLen + (b >= nBlocks - nLong ? 1 : 0);
      const part = data.slice(at, at + len);
      at += len;
      blocks.push({ data: part, ec: remainder(part, gen) });
    }
    const out = [];
    for (let i = 0; i <= shortLen; i++) {
      for (const blk of blocks) if (i < blk.data.length) out.push(blk.data[i]);
    }
    for (let i = 0; i < ecLen; i++) for (const blk of blocks) out.push(blk.ec[i]);
    return out;
  }

  // ---- The symbol ---------------------------------------------------------------------------
  function alignment(v) {
    if (v === 1) return [];
    const n = Math.floor(v / 7) + 2;
    const size = v * 4 + 17;
    const step = v === 32 ? 26 : Math.ceil((v * 4 + 4) / (n * 2 - 2)) * 2;
    const at = [6];
    for (let pos = size - 7; at.length < n; pos -= step) at.splice(1, 0, pos);
    return at;
  }

  function bch(value, poly, bitsOfPoly) {  // the remainder of value·x^(deg) by poly
    const deg = bitsOfPoly - 1;
    let r = value << deg;
    for (let i = 31 - Math.clz32(r); i >= deg; i--) if ((r >>> i) & 1) r ^= poly << (i - deg);
    return r;
  }

  // The symbol of version v, level lvl holding the data codewords `data`, with the mask
  // `forcedMask`, else the one of least penalty (the first of equal ones).
  function symbol(data, v, lvl, forcedMask) {
    const size = v * 4 + 17;
    const m = Array.from({ length: size }, () => new Array(size).fill(0));
    const fn = Array.from({ length: size }, () => new Array(size).fill(false));
    const set = (r, c, dark) => { m[r][c] = dark ? 1 : 0; fn[r][c] = true; };

    for (const [r0, c0] of [[0, 0], [0, size - 7], [size - 7, 0]]) {  // finders + separators
      for (let r = -1; r <= 7; r++) {
        for (let c = -1; c <= 7; c++) {
          const rr = r0 + r;
          const cc = c0 + c;
          if (rr < 0 || cc < 0 || rr >= size || cc >= size) continue;
          const ring = Math.max(Math.abs(r - 3), Math.abs(c - 3));
          set(rr, cc, ring !== 2 && ring !== 4);
        }
      }
    }
    for (let i = 8; i < size - 8; i++) { set(6, i, i % 2 === 0); set(i, 6, i % 2 === 0); }
    const centres = alignment(v);
    for (const r of centres) {
      for (const c of centres) {
        const last = centres[centres.length - 1];
        if ((r === 6 && (c === 6 || c === last)) || (r === last && c === 6)) continue;  // finders
        for (let dr = -2; dr <= 2; dr++) {
          for (let dc = -2; dc <= 2; dc++) {
            set(r + dr, c + dc, Math.max(Math.abs(dr), Math.abs(dc)) !== 1);
          }
        }
      }
    }
    // Reserve the format areas (written per mask) and the dark module.
    for (let i = 0; i < 9; i++) { fn[8][i] = fn[i][8] = true; }
    for (let i = 0; i < 8; i++) { fn[8][size - 1 - i] = fn[size - 1 - i][8] = true; }
    set(size - 8, 8, true);
    if (v >= 7) {  // the version information, twice
      const info = (v << 12) | bch(v, 0x1f25, 13);
      for (let i = 0; i < 18; i++) {
        const dark = (info >>> i) & 1;
        const a = size - 11 + (i % 3);
        const b = Math.floor(i / 3);
        set(a, b, dark);
        set(b, a, dark);
      }
    }

    // The data, in two-module columns from the bottom right, up and down in turn.
    const words = codewords(data, v, lvl);
    let bit = 0;
    const total = words.length * 8;
    for (let right = size - 1; right >= 1; right -= 2) {
      if (right === 6) right = 5;
      for (let k = 0; k < size; k++) {
        const upward = ((right + 1) & 2) === 0;
        const r = upward ? size - 1 - k : k;
        for (let j = 0; j < 2; j++) {
          const c = right - j;
          if (fn[r][c]) continue;
          if (bit < total) m[r][c] = (words[bit >>> 3] >>> (7 - (bit & 7))) & 1;
          bit++;
        }
      }
    }

    const masks = [
      (r, c) => (r + c) % 2 === 0, (r) => r % 2 === 0, (r, c) => c % 3 === 0,
      (r, c) => (r + c) % 3 === 0, (r, c) => (Math.floor(r / 2) + Math.floor(c / 3)) % 2 === 0,
      (r, c) => ((r * c) % 2) + ((r * c) % 3) === 0,
      (r, c) => (((r * c) % 2) + ((r * c) % 3)) % 2 === 0,
      (r, c) => (((r + c) % 2) + ((r * c) % 3)) % 2 === 0,
    ];
    // The data masked with pattern k. The penalty is scored on it before the format and
    // version information (and the dark module beside them) are written, all light then:
    // they are derived from the mask chosen (ISO/IEC 18004 7.8, 7.9, 7.10).
    function masked(k) {
      const out = m.map((row) => row.slice());
      for (let r = 0; r < size; r++) {
        for (let c = 0; c < size; c++) if (!fn[r][c] && masks[k](r, c)) out[r][c] ^= 1;
      }
      return out;
    }
    function blank(out) {
      for (let i = 0; i < 9; i++) { out[8][i] = 0; out[i][8] = 0; }
      for (let i = 0; i < 8; i++) { out[8][size - 1 - i] = 0; out[size - 1 - i][8] = 0; }
      if (v >= 7) {
        for (let i = 0; i < 18; i++) {
          out[size - 11 + (i % 3)][Math.floor(i / 3)] = 0;
          out[Math.floor(i / 3)][size - 11 + (i % 3)] = 0;
        }
      }
      return out;
    }
    function finished(out, k) {
      const data = (LEVEL_BITS[lvl] << 3) | k;
      const format = ((data << 10) | bch(data, 0x537, 11)) ^ 0x5412;
      const f = (i) => (format >>> i) & 1;
      // (row, column): bits 0-7 down column 8 and 8-14 along row 8 by the top-left finder;
      // the copy: 0-7 along row 8 from the right edge, 8-14 down column 8 at the bottom.
      for (let i = 0; i <= 5; i++) out[i][8] = f(i);
      out[7][8] = f(6);
      out[8][8] = f(7);
      out[8][7] = f(8);
      for (let i = 9; i < 15; i++) out[8][14 - i] = f(i);
      for (let i = 0; i < 8; i++) out[8][size - 1 - i] = f(i);
      for (let i = 8; i < 15; i++) out[size - 15 + i][8] = f(i);
      out[size - 8][8] = 1;
      return out;
    }
    let mask = forcedMask;
    if (mask === undefined) {
      let least = Infinity;
      for (let k = 0; k < 8; k++) {
        const score = penalty(blank(masked(k)));
        if (score < least) { least = score; mask = k; }
      }
    }
    return { version: v, level: lvl, mask, modules: finished(masked(mask), mask) };
  }

  // ---- The penalty of a masked symbol (ISO/IEC 18004, 7.8.3) --------------------------------
  const FINDER = [1, 0, 1, 1, 1, 0, 1];

  function finderLike(seq) {  // 1:1:3:1:1 with four light modules (or the edge) on one side
    const n = seq.length;
    const light = (from, to) => {
      for (let i = Math.max(from, 0); i < Math.min(to, n); i++) if (seq[i]) return false;
      return true;
    };
    const find = (from) => {
      for (let i = from; i + 7 <= n; i++) if (FINDER.every((b, j) => seq[i + j] === b)) return i;
      return -1;
    };
    let score = 0;
    let idx = find(0);
    while (idx !== -1) {
      let next = idx + 4;  // a pattern not counted: the next may start at its middle dark run
      if (light(idx - 4, idx) || light(idx + 7, idx + 11)) {
        score += 40;
        next = idx + 7;
      }
      idx = find(next);
    }
    return score;
  }

  function penalty(mod) {
    const size = mod.length;
    let score = 0;
    let dark = 0;
    const runs = (seq) => {
      let s = 0;
      let run = 1;
      for (let i = 1; i <= seq.length; i++) {
        if (i < seq.length && seq[i] === seq[i - 1]) {
          run++;
        } else {
          if (run >= 5) s += run - 2;
          run = 1;
        }
      }
      return s;
    };
    for (let i = 0; i < size; i++) {
      const row = mod[i];
      const col = mod.map((r) => r[i]);
      score += runs(row) + runs(col) + finderLike(row) + finderLike(col);
      for (let j = 0; j < size; j++) {
        dark += row[j];
        if (i && j && row[j] === row[j - 1] && row[j] === mod[i - 1][j]
            && row[j] === mod[i - 1][j - 1]) score += 3;
      }
    }
    score += 10 * Math.floor(Math.abs((dark * 100) / (size * size) - 50) / 5);
    return score;
  }

  // ---- Output -------------------------------------------------------------------------------
  function matrix(text, mask) {
    const bytes = Array.from(new TextEncoder().encode(text));
    const { v, lvl } = choose(bytes.length);
    return symbol(dataWords(bytes, v, lvl), v, lvl, mask);
  }

  // The data codewords a text is given (for the tests).
  function data(text) {
    const bytes = Array.from(new TextEncoder().encode(text));
    const { v, lvl } = choose(bytes.length);
    return { version: v, level: lvl, words: dataWords(bytes, v, lvl) };
  }

  function svg(text, label) {
    const { modules } = matrix(text);
    const size = modules.length;
    const quiet = 4;
    let path = "";
    modules.forEach((row, r) => row.forEach((on, c) => {
      if (on) path += `M${c + quiet} ${r + quiet}h1v1h-1z`;
    }));
    const full = size + 2 * quiet;
    const esc = (s) => String(s).replace(/[&<>"]/g, (ch) => `&#${ch.charCodeAt(0)};`);
    return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${full} ${full}" `
      + `shape-rendering="crispEdges" role="img" aria-label="${esc(label || text)}">`
      + `<rect width="${full}" height="${full}" fill="#fff"/>`
      + `<path d="${path}" fill="#000"/></svg>`;
  }

  window.fsQR = { svg, matrix, data, symbol };
})();
