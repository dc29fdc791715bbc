/**
 * A rendered page handed to the OCR engine as a greyscale PGM (binary "P5" netpbm): a short text header
 * and one byte per pixel. tesseract works on grey pixels anyway; a colour PNG costs an encoding here
 * (0.5 CPU-second for an A4 page at 300 dpi) and a decoding plus a conversion to grey inside the
 * engine's WebAssembly (another 0.5–1 s), while this costs a tenth of a second in all. The bytes are
 * larger (8.7 MB for an A4 page at 300 dpi, against about 1 MB of PNG), but they only pass from one
 * thread of the process to another, one page at a time.
 */

/** Grey levels of RGBA pixels by their luminance (ITU-R BT.601 weights, in integers). */
export function greyscalePgm(
  rgba: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
): Uint8Array {
  const header = new TextEncoder().encode(`P5\n${width} ${height}\n255\n`);
  const image = new Uint8Array(header.byteLength + width * height);
  image.set(header);
  // The page is drawn opaque (pdf.js fills it white first), so alpha is ignored.
  for (let pixel = 0, at = header.byteLength, end = width * height * 4; pixel < end; pixel += 4, at++) {
    image[at] =
      ((rgba[pixel] ?? 255) * 77 + (rgba[pixel + 1] ?? 255) * 150 + (rgba[pixel + 2] ?? 255) * 29) >> 8;
  }
  return image;
}

/** The size and pixels of a PGM made by greyscalePgm (for tests and the bench). */
export function readGreyscalePgm(image: Uint8Array): { width: number; height: number; pixels: Uint8Array } {
  const header = /^P5\n(\d+) (\d+)\n255\n/.exec(new TextDecoder('latin1').decode(image.subarray(0, 32)));
  if (!header) throw new Error('not a PGM image made by greyscalePgm');
  const width = Number(header[1]);
  const height = Number(header[2]);
  return { width, height, pixels: image.subarray(header[0].length, header[0].length + width * height) };
}
