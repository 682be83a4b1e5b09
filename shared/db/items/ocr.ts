import { AssetOcrRecordSchema } from '../../model/ocr.ts';
import { codec } from '../codec.ts';

/** An asset's OCR lines (`ASSETOCR#<assetId>` / `OCR`): shared/db/ocr.repository.ts. */
export const assetOcrCodec = codec('assetOcr', AssetOcrRecordSchema);
