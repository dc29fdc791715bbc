/**
 * An image's width and height from its header, read before anything decodes it: a PNG of a few kB can
 * declare 100,000 × 100,000 pixels (40 GB once decoded), so its size is checked against the limit first.
 * The header is parsed by image-size, which reads only the few bytes that hold the dimensions.
 */
import { imageSize } from 'image-size';
import { errorMessages } from '../../error-messages-en.ts';
import { RagentError } from '../../errors.ts';
import { imageTooLarge, type OcrSettings } from './ocr-settings.ts';

export function checkImageDimensions(
  name: string,
  bytes: Uint8Array,
  settings: OcrSettings,
): { width: number; height: number } {
  let size: { width: number; height: number };
  try {
    size = imageSize(bytes);
  } catch (error) {
    throw new RagentError('IMAGE_CORRUPT', errorMessages.IMAGE_CORRUPT.headerUnreadable({ name }), {
      cause: error,
    });
  }
  const { width, height } = size;
  if (!(width > 0 && height > 0)) {
    throw new RagentError('IMAGE_CORRUPT', errorMessages.IMAGE_CORRUPT.noSize({ name }));
  }
  if (width * height > settings.maxPixels) throw imageTooLarge(name, width, height, settings);
  return { width, height };
}
