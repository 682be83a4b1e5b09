/**
 * Immich v3.2's photo editor (`@immich/sdk` 3.2.2: AssetEditsCreateDto, AssetEditsResponseDto),
 * checked with Immich's messages where they are its own.
 */
import * as v from 'valibot';
import type { PhotoEdit, PhotoEditRequest } from '../../model/asset.ts';
import { integer, object, picklist } from './common.ts';

const expecting = { crop: 'x, y, width, height', rotate: 'angle', mirror: 'axis' } as const;

const crop = v.object({ x: integer(0), y: integer(0), width: integer(1), height: integer(1) });
const rotate = v.object({
  angle: v.pipe(
    v.number('$property must be a number'),
    v.picklist([0, 90, 180, 270], 'Angle must be one of the following values: 0, 90, 180, 270'),
  ),
});
const mirror = v.object({ axis: picklist(['horizontal', 'vertical'] as const) });

/** One edit: its action, and the parameters that action takes (Immich's message names them). */
const edit = v.pipe(
  object({
    action: picklist(['crop', 'rotate', 'mirror'] as const),
    parameters: v.record(v.string(), v.unknown(), '$property must be an object'),
  }),
  v.rawTransform(({ dataset, addIssue, NEVER }): PhotoEditRequest => {
    const { action, parameters } = dataset.value;
    const schema = action === 'crop' ? crop : action === 'rotate' ? rotate : mirror;
    const parsed = v.safeParse(schema, parameters);
    if (!parsed.success) {
      const own = parsed.issues.find((issue) => issue.message.startsWith('Angle'));
      addIssue({ message: own?.message ?? `Invalid parameters for action '${action}', expecting keys: ${expecting[action]}` });
      return NEVER;
    }
    return { action, parameters: parsed.output } as PhotoEditRequest;
  }),
);

/** Immich's `uniqueEditActions`: one of each action (a mirror once per axis). */
const unique = (edits: PhotoEditRequest[]): boolean => {
  const seen = new Set(edits.map((item) => (item.action === 'mirror' ? `mirror-${item.parameters.axis}` : item.action)));
  return seen.size === edits.length;
};

export const AssetEditsCreateDto = object({
  edits: v.pipe(
    v.array(edit, '$property must be an array'),
    v.minLength(1, '$property must contain at least 1 element'),
    v.check(unique, 'Duplicate edit actions are not allowed'),
  ),
});

export interface AssetEditsResponseDto {
  assetId: string;
  edits: PhotoEdit[];
}

export const mapPhotoEdits = (assetId: string, edits: readonly PhotoEdit[]): AssetEditsResponseDto => ({ assetId, edits: [...edits] });
