// A QR code encoder for links shown in the lobby (a crew member's link, scanned by the member's phone). Drawn in the
// page so the link, which carries a token, is never sent to a QR service. Only what a link needs: byte mode,
// error correction L or M, versions 1 to 10 (up to 271 bytes at L). Section numbers cite ISO/IEC 18004:2015.

/** Error correction: the two lowest levels (a link on a screen is not damaged; a smaller symbol scans better).
 * `bits` are the format information's level bits (§7.9.1, Table 12). */
export const ECL = { L: { bits: 1, index: 0 }, M: { bits: 0, index: 1 } };

/** §7.5.1, Table 9, per version 1–10: error correction codewords per block and blocks, for L then M. */
const ECC_PER_BLOCK = [
  [7, 10, 15, 20, 26, 18, 20, 24, 30, 18],
  [10, 16, 26, 18, 24, 16, 18, 22, 22, 26],
];
const BLOCKS = [
  [1, 1, 1, 1, 1, 2, 2, 2, 2, 4],
  [1, 1, 1, 2, 2, 4, 4, 4, 5, 5],
];
export const MAX_VERSION = 10;

/** Thrown when the text does not fit version 10 at the level asked for. */
export class QRTooLong extends Error {
  constructor(bytes, capacity) {
    super(`${bytes} bytes do not fit a version ${MAX_VERSION} QR code (at most ${capacity})`);
    this.bytes = bytes;
    this.capacity = capacity;
  }
}

/** Modules that carry codewords in a symbol of `version` (§7.4.1: all modules less the function patterns). */
function rawDataModules(version) {
  let result = (16 * version + 128) * version + 64;
  if (version >= 2) {
    const align = Math.floor(version / 7) + 2;
    result -= (25 * align - 10) * align - 55;
    if (version >= 7) result -= 36;
  }
  return result;
}

function dataCodewords(version, ecl) {
  const i = ECL[ecl].index;
  return Math.floor(rawDataModules(version) / 8) - ECC_PER_BLOCK[i][version - 1] * BLOCKS[i][version - 1];
}

/** Byte mode carries 8 length bits up to version 9, 16 from 10 (§7.4.1, Table 3). */
function countBits(version) {
  return version <= 9 ? 8 : 16;
}

// GF(256) with the polynomial x^8 + x^4 + x^3 + x^2 + 1 (§7.5.2).
function gfMultiply(x, y) {
  let z = 0;
  for (let i = 7; i >= 0; i--) {
    z = (z << 1) ^ ((z >>> 7) * 0x11d);
    z ^= ((y >>> i) & 1) * x;
  }
  return z & 0xff;
}

/** The generator polynomial of `degree` (roots α^0 … α^(degree-1)), leading 1 dropped. */
function rsDivisor(degree) {
  const result = new Array(degree).fill(0);
  result[degree - 1] = 1;
  let root = 1;
  for (let i = 0; i < degree; i++) {
    for (let j = 0; j < degree; j++) {
      result[j] = gfMultiply(result[j], root);
      if (j + 1 < degree) result[j] ^= result[j + 1];
    }
    root = gfMultiply(root, 0x02);
  }
  return result;
}

function rsRemainder(data, divisor) {
  const result = new Array(divisor.length).fill(0);
  for (const byte of data) {
    const factor = byte ^ result.shift();
    result.push(0);
    for (let i = 0; i < divisor.length; i++) result[i] ^= gfMultiply(divisor[i], factor);
  }
  return result;
}

/** The data codewords: mode, count, bytes, terminator, padding (§7.4.2–§7.4.10). */
function dataBytes(bytes, version, ecl) {
  const bits = [];
  const put = (value, length) => {
    for (let i = length - 1; i >= 0; i--) bits.push((value >>> i) & 1);
  };
  put(0b0100, 4);
  put(bytes.length, countBits(version));
  for (const byte of bytes) put(byte, 8);
  const capacity = dataCodewords(version, ecl) * 8;
  put(0, Math.min(4, capacity - bits.length));
  put(0, (8 - (bits.length % 8)) % 8);
  for (let pad = 0xec; bits.length < capacity; pad ^= 0xec ^ 0x11) put(pad, 8);
  const result = [];
  for (let i = 0; i < bits.length; i += 8) result.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));
  return result;
}

/** Splits into blocks, adds each block's error correction and interleaves (§7.5.2, §7.6). */
function withErrorCorrection(data, version, ecl) {
  const i = ECL[ecl].index;
  const blocks = BLOCKS[i][version - 1];
  const eccLength = ECC_PER_BLOCK[i][version - 1];
  const raw = Math.floor(rawDataModules(version) / 8);
  const shortBlocks = blocks - (raw % blocks);
  const shortData = Math.floor(raw / blocks) - eccLength;
  const divisor = rsDivisor(eccLength);
  const dataBlocks = [];
  const eccBlocks = [];
  for (let b = 0, at = 0; b < blocks; b++) {
    const length = shortData + (b < shortBlocks ? 0 : 1);
    const block = data.slice(at, at + length);
    at += length;
    dataBlocks.push(block);
    eccBlocks.push(rsRemainder(block, divisor));
  }
  const result = [];
  for (let k = 0; k <= shortData; k++) for (const block of dataBlocks) if (k < block.length) result.push(block[k]);
  for (let k = 0; k < eccLength; k++) for (const block of eccBlocks) result.push(block[k]);
  return result;
}

/** Centres of the alignment patterns (§6.3.6, Annex E). */
function alignmentPositions(version) {
  if (version === 1) return [];
  const count = Math.floor(version / 7) + 2;
  const step = Math.ceil((version * 4 + 4) / (count * 2 - 2)) * 2;
  const result = [6];
  for (let pos = version * 4 + 17 - 7; result.length < count; pos -= step) result.splice(1, 0, pos);
  return result;
}

const MASKS = [
  (x, y) => (x + y) % 2 === 0,
  (x, y) => y % 2 === 0,
  (x) => x % 3 === 0,
  (x, y) => (x + y) % 3 === 0,
  (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
  (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
  (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
  (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
];

/** One symbol being built: dark modules and which of them belong to function patterns. */
class QRSymbol {
  constructor(version) {
    this.version = version;
    this.size = version * 4 + 17;
    this.dark = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
    this.fixed = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
  }

  set(x, y, dark) {
    this.dark[y][x] = dark;
    this.fixed[y][x] = true;
  }

  drawFunctionPatterns() {
    const size = this.size;
    for (let i = 0; i < size; i++) {
      this.set(6, i, i % 2 === 0);
      this.set(i, 6, i % 2 === 0);
    }
    // Finder patterns with their separators (§6.3.3).
    for (const [cx, cy] of [[3, 3], [size - 4, 3], [3, size - 4]]) {
      for (let dy = -4; dy <= 4; dy++) {
        for (let dx = -4; dx <= 4; dx++) {
          const x = cx + dx;
          const y = cy + dy;
          const distance = Math.max(Math.abs(dx), Math.abs(dy));
          if (x >= 0 && x < size && y >= 0 && y < size) this.set(x, y, distance !== 2 && distance !== 4);
        }
      }
    }
    const positions = alignmentPositions(this.version);
    const last = positions.length - 1;
    for (let i = 0; i <= last; i++) {
      for (let j = 0; j <= last; j++) {
        if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) continue; // the finders' corners
        for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) this.set(positions[i] + dx, positions[j] + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
      }
    }
    this.drawFormat("M", 0); // reserves the format areas; drawn for real once the mask is chosen
    this.drawVersion();
  }

  /** Format information: level and mask, BCH(15,5), XORed with 101010000010010 (§7.9). */
  drawFormat(ecl, mask) {
    const data = (ECL[ecl].bits << 3) | mask;
    let rem = data;
    for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
    const bits = ((data << 10) | rem) ^ 0x5412;
    const bit = (i) => ((bits >>> i) & 1) !== 0;
    const size = this.size;
    for (let i = 0; i <= 5; i++) this.set(8, i, bit(i));
    this.set(8, 7, bit(6));
    this.set(8, 8, bit(7));
    this.set(7, 8, bit(8));
    for (let i = 9; i < 15; i++) this.set(14 - i, 8, bit(i));
    for (let i = 0; i < 8; i++) this.set(size - 1 - i, 8, bit(i));
    for (let i = 8; i < 15; i++) this.set(8, size - 15 + i, bit(i));
    this.set(8, size - 8, true); // the dark module (§7.9.1)
  }

  /** Version information from version 7 on: BCH(18,6) (§7.10). */
  drawVersion() {
    if (this.version < 7) return;
    let rem = this.version;
    for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25);
    const bits = (this.version << 12) | rem;
    for (let i = 0; i < 18; i++) {
      const dark = ((bits >>> i) & 1) !== 0;
      const a = this.size - 11 + (i % 3);
      const b = Math.floor(i / 3);
      this.set(a, b, dark);
      this.set(b, a, dark);
    }
  }

  /** Codewords in two-module columns, right to left, zigzagging up and down, skipping the timing column (§7.7.3). */
  drawCodewords(codewords) {
    const size = this.size;
    let i = 0;
    for (let right = size - 1; right >= 1; right -= 2) {
      if (right === 6) right = 5;
      for (let vertical = 0; vertical < size; vertical++) {
        for (let j = 0; j < 2; j++) {
          const x = right - j;
          const upward = ((right + 1) & 2) === 0;
          const y = upward ? size - 1 - vertical : vertical;
          if (this.fixed[y][x]) continue;
          // Remainder bits past the last codeword stay light (§7.7.3).
          this.dark[y][x] = i < codewords.length * 8 && ((codewords[i >>> 3] >>> (7 - (i & 7))) & 1) !== 0;
          i++;
        }
      }
    }
  }

  applyMask(mask) {
    for (let y = 0; y < this.size; y++) for (let x = 0; x < this.size; x++) if (!this.fixed[y][x] && MASKS[mask](x, y)) this.dark[y][x] = !this.dark[y][x];
  }

  /** The penalty score of §7.8.3 (Table 11): runs, 2×2 blocks, finder-like patterns, dark balance. */
  penalty() {
    const size = this.size;
    const m = this.dark;
    let score = 0;
    const lines = [];
    for (let i = 0; i < size; i++) {
      lines.push(m[i]);
      lines.push(m.map((row) => row[i]));
    }
    const finderLike = [true, false, true, true, true, false, true];
    for (const line of lines) {
      let run = 1;
      for (let i = 1; i <= size; i++) {
        if (i < size && line[i] === line[i - 1]) {
          run++;
          continue;
        }
        if (run >= 5) score += 3 + (run - 5);
        run = 1;
      }
      for (let i = 0; i + 7 <= size; i++) {
        if (!finderLike.every((dark, k) => line[i + k] === dark)) continue;
        const lightBefore = i >= 4 && [1, 2, 3, 4].every((k) => !line[i - k]);
        const lightAfter = i + 11 <= size && [7, 8, 9, 10].every((k) => !line[i + k]);
        if (lightBefore || lightAfter) score += 40;
      }
    }
    for (let y = 0; y + 1 < size; y++) for (let x = 0; x + 1 < size; x++) if (m[y][x] === m[y][x + 1] && m[y][x] === m[y + 1][x] && m[y][x] === m[y + 1][x + 1]) score += 3;
    const dark = m.reduce((sum, row) => sum + row.filter(Boolean).length, 0);
    score += 10 * Math.floor(Math.abs((dark * 100) / (size * size) - 50) / 5);
    return score;
  }
}

/**
 * Encodes `text` (as UTF-8) in the smallest version that holds it at level `ecl` ("M" by default).
 * @returns {{version: number, size: number, ecl: string, mask: number, modules: boolean[][]}} modules[y][x], true
 * is dark; without the quiet zone (four light modules around, §6.3.8), which the drawing adds.
 */
export function encodeQR(text, { ecl = "M" } = {}) {
  if (!(ecl in ECL)) throw new RangeError(`error correction level ${ecl}: L or M`);
  const bytes = [...new TextEncoder().encode(text)];
  let version = 1;
  while (version <= MAX_VERSION && 4 + countBits(version) + bytes.length * 8 > dataCodewords(version, ecl) * 8) version++;
  if (version > MAX_VERSION) throw new QRTooLong(bytes.length, Math.floor((dataCodewords(MAX_VERSION, ecl) * 8 - 4 - countBits(MAX_VERSION)) / 8));
  const codewords = withErrorCorrection(dataBytes(bytes, version, ecl), version, ecl);
  let best = null;
  for (let mask = 0; mask < MASKS.length; mask++) {
    const symbol = new QRSymbol(version);
    symbol.drawFunctionPatterns();
    symbol.drawCodewords(codewords);
    symbol.applyMask(mask);
    symbol.drawFormat(ecl, mask);
    const penalty = symbol.penalty();
    if (best === null || penalty < best.penalty) best = { penalty, mask, symbol };
  }
  return { version, size: best.symbol.size, ecl, mask: best.mask, modules: best.symbol.dark };
}

/** An SVG drawing of `code` with its quiet zone: one path of unit squares, crisp at any size. */
export function qrSVG(code, { label, quiet = 4 } = {}) {
  const ns = "http://www.w3.org/2000/svg";
  const side = code.size + quiet * 2;
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${side} ${side}`);
  svg.setAttribute("shape-rendering", "crispEdges");
  svg.setAttribute("class", "qr");
  svg.setAttribute("role", "img");
  if (label) svg.setAttribute("aria-label", label);
  svg.dataset.size = String(code.size);
  svg.dataset.quiet = String(quiet);
  const background = document.createElementNS(ns, "rect");
  background.setAttribute("width", String(side));
  background.setAttribute("height", String(side));
  background.setAttribute("fill", "#ffffff");
  const path = document.createElementNS(ns, "path");
  let d = "";
  code.modules.forEach((row, y) => row.forEach((dark, x) => (d += dark ? `M${x + quiet} ${y + quiet}h1v1h-1z` : "")));
  path.setAttribute("d", d);
  path.setAttribute("fill", "#000000");
  svg.append(background, path);
  return svg;
}
