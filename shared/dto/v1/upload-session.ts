import * as v from 'valibot';
import { limits } from '../../model/limits.ts';
import type { OpenUploadSession, PartTarget } from '../../model/upload-session.ts';
import { as, dto, nonEmptyString, optional, rules, uuid } from '../common.ts';
import { createAssetFields } from './asset.ts';

const sha1Hex = /^[0-9a-f]{40}$/i;
const sha1Base64 = /^[A-Za-z0-9+/]{27}=$/;

const wholeNumber = (min: number, max: number) =>
  v.pipe(
    v.unknown(),
    v.check((x: unknown) => typeof x === 'number' && Number.isInteger(x), '$property must be an integer number'),
    v.check((x: unknown) => typeof x === 'number' && x >= min, `$property must not be less than ${min}`),
    v.check((x: unknown) => typeof x === 'number' && x <= max, `$property must not be greater than ${max}`),
    as<number>(),
  );

/**
 * `POST /asset/upload-session` (docs/large-uploads.md): the text fields of `POST /asset/upload`,
 * the file's name, size and SHA-1 (hex or base64, as the bulk upload check takes it), the part
 * size the client cut it into and each part's SHA-1 (base64, as S3's `x-amz-checksum-sha1`), and
 * optionally the XMP sidecar's text.
 */
export const CreateUploadSessionDto = v.pipe(
  dto({
    ...createAssetFields,
    fileName: nonEmptyString(limits.keyValue),
    size: wholeNumber(1, limits.sessionBytes),
    checksum: v.pipe(
      v.unknown(),
      v.check(
        (x: unknown) => typeof x === 'string' && (sha1Hex.test(x) || sha1Base64.test(x)),
        '$property must be a SHA-1 (hex or base64)',
      ),
      as<string>(),
    ),
    partSize: wholeNumber(limits.minPartBytes, limits.maxPartBytes),
    partChecksums: v.pipe(
      v.unknown(),
      v.check((x: unknown) => Array.isArray(x), '$property must be an array'),
      v.check(
        (x: unknown) => Array.isArray(x) && x.every((each) => typeof each === 'string' && sha1Base64.test(each)),
        'each value in $property must be a SHA-1 in base64',
      ),
      as<string[]>(),
    ),
    sidecarData: optional(v.pipe(v.unknown(), rules.isString, rules.maxLength(limits.sidecarBytes), as<string>())),
  }),
  v.check(
    (input) => input.partChecksums.length === Math.ceil(input.size / input.partSize),
    'partChecksums must have one SHA-1 for each part (size divided by partSize, rounded up)',
  ),
  v.check(
    (input) => Math.ceil(input.size / input.partSize) <= limits.sessionParts,
    `a file may have at most ${limits.sessionParts} parts: choose a larger partSize`,
  ),
);

/** `/asset/upload-session/{sessionId}`. */
export const UploadSessionParams = dto({ sessionId: uuid() });

/** The local part URL (`/asset/upload-session/{sessionId}/part/{partNumber}`), signed by the server. */
export const UploadPartParams = dto({
  sessionId: uuid(),
  partNumber: v.pipe(
    v.unknown(),
    v.check((x: unknown) => typeof x === 'string' && /^[1-9][0-9]{0,3}$/.test(x), '$property must be a part number'),
    v.transform((x: unknown) => Number(x)),
  ),
});
export const UploadPartQuery = dto({
  expires: nonEmptyString(20),
  signature: nonEmptyString(100),
});

/** Where one part goes: PUT the part's bytes to `url` with `headers` (`uploaded`: the store holds it). */
export type UploadPartTarget = PartTarget;

/** A session: 201 from POST (with no part uploaded yet) and 200 from GET. */
export interface UploadSessionResponseDto {
  /** The asset the file becomes (POST /asset/upload's `id`). */
  id: string;
  duplicate: false;
  sessionId: string;
  fileName: string;
  size: number;
  partSize: number;
  expiresAt: string;
  parts: UploadPartTarget[];
}

export const mapUploadSession = ({ session, parts }: OpenUploadSession): UploadSessionResponseDto => ({
  id: session.assetId,
  duplicate: false,
  sessionId: session.id,
  fileName: session.fileName,
  size: session.size,
  partSize: session.partSize,
  expiresAt: session.expiresAt,
  parts,
});
