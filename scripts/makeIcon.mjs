// Draws the extension's marketplace icon, media/icon.png (256×256), from the same mark as the activity-bar
// icon (media/alephium.svg: a slanted bar with a short stroke on each side), so the icon is reproducible
// from the repository without an image editor: `node scripts/makeIcon.mjs`. Plain Node: polygons filled
// with 4×4 supersampling, written as an RGBA PNG through zlib.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const SIZE = 256;
const SAMPLES = 4;
const BACKGROUND = [24, 28, 38];
const MARK = [255, 255, 255];
const CORNER_RADIUS = 48;

/** The mark in the 24×24 units of media/alephium.svg, each stroke as a filled polygon. */
const SVG_UNITS = 24;
const MARGIN = 3.2;
const SHAPES = [
  // The slanted bar: M6 3 h4 l8 18 h-4 z
  [
    [6, 3],
    [10, 3],
    [18, 21],
    [14, 21],
  ],
  // The lower-left stroke (M6 21 l3 -7) and the upper-right one (M15 3 l3 7), widened to bars.
  strokeAsPolygon([6, 21], [9, 14], 1.9),
  strokeAsPolygon([15, 3], [18, 10], 1.9),
];

function strokeAsPolygon([x1, y1], [x2, y2], width) {
  const length = Math.hypot(x2 - x1, y2 - y1);
  const nx = (-(y2 - y1) / length) * (width / 2);
  const ny = ((x2 - x1) / length) * (width / 2);
  return [
    [x1 + nx, y1 + ny],
    [x2 + nx, y2 + ny],
    [x2 - nx, y2 - ny],
    [x1 - nx, y1 - ny],
  ];
}

/** Even-odd point-in-polygon test (the polygons are convex, so any rule would do). */
function inside(polygon, x, y) {
  let result = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i];
    const [xj, yj] = polygon[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) result = !result;
  }
  return result;
}

function insideRoundedSquare(x, y) {
  const r = CORNER_RADIUS;
  const cx = Math.min(Math.max(x, r), SIZE - r);
  const cy = Math.min(Math.max(y, r), SIZE - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

function toPixels(polygon) {
  const scale = (SIZE - 2 * MARGIN * (SIZE / SVG_UNITS)) / SVG_UNITS;
  const offset = MARGIN * (SIZE / SVG_UNITS);
  return polygon.map(([x, y]) => [offset + x * scale, offset + y * scale]);
}

function render() {
  const shapes = SHAPES.map(toPixels);
  const rgba = Buffer.alloc(SIZE * SIZE * 4);
  for (let py = 0; py < SIZE; py++) {
    for (let px = 0; px < SIZE; px++) {
      let covered = 0;
      let marked = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const x = px + (sx + 0.5) / SAMPLES;
          const y = py + (sy + 0.5) / SAMPLES;
          if (!insideRoundedSquare(x, y)) continue;
          covered++;
          if (shapes.some((shape) => inside(shape, x, y))) marked++;
        }
      }
      const o = (py * SIZE + px) * 4;
      const markShare = covered === 0 ? 0 : marked / covered;
      for (let c = 0; c < 3; c++) {
        rgba[o + c] = Math.round(BACKGROUND[c] + (MARK[c] - BACKGROUND[c]) * markShare);
      }
      rgba[o + 3] = Math.round((covered / (SAMPLES * SAMPLES)) * 255);
    }
  }
  return rgba;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buffer) {
  let c = 0xffffffff;
  for (const byte of buffer) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

export function iconPng() {
  const rgba = render();
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type: RGBA
  // Each scanline starts with filter type 0 (none).
  const raw = Buffer.alloc(SIZE * (SIZE * 4 + 1));
  for (let y = 0; y < SIZE; y++) rgba.copy(raw, y * (SIZE * 4 + 1) + 1, y * SIZE * 4, (y + 1) * SIZE * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const target = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'media', 'icon.png');
  const png = iconPng();
  writeFileSync(target, png);
  console.log(`${path.relative(process.cwd(), target)}: ${SIZE}×${SIZE}, ${png.length} bytes`);
}
