/**
 * Who may upload (POST /asset/upload, POST /assets, and the ingress that takes large uploads for
 * them: docs/large-uploads.md): a signed-in user, an API key with `asset.upload`, or a shared
 * link's visitor when the link allows uploads (Immich's `@SharedLinkRoute()` / `sharedLink: true`
 * with `requireUploadAccess`; docs/immich-compatibility.md, "Shared links").
 */
import { Unauthenticated } from '../core/errors.ts';
import * as sharedLinkRepo from '../db/shared-link.repository.ts';
import type { SharedLinkRecord } from '../model/shared-link.ts';
import type { Auth } from '../model/user.ts';
import { noAccess, Permission } from './permission.ts';
import type { RouteRule } from './route.ts';

/**
 * The upload routes' rule, which the ingress authenticates with too: a shared-link route (a
 * password link's visitor must have proven its password: authenticate with the link unlock, as
 * `sharedHandler` does), and an API key needs `asset.upload`.
 */
export const uploadRule = { access: 'shared', permission: 'asset.upload' } as const satisfies RouteRule;

/**
 * The shared link an upload comes through (undefined for a signed-in user), once it is known to
 * allow uploads. A link that does not (or is gone) is refused as Immich refuses it: v1.100's
 * `requireUploadAccess` is a bare 401 as the file starts; v3 answers its access check's 400
 * `Not found or no asset.upload access`.
 */
export const uploadLinkOf = async (auth: Auth, generation: 'v1' | 'v3' = 'v3'): Promise<SharedLinkRecord | undefined> => {
  if (!auth.sharedLink) return undefined;
  const link = await sharedLinkRepo.get(auth.user.id, auth.sharedLink.id);
  if (!link?.allowUpload) throw generation === 'v1' ? new Unauthenticated() : noAccess(Permission.AssetUpload);
  return link;
};

/** Refuses a shared-link caller whose link does not allow uploads (see `uploadLinkOf`); anyone else passes. */
export const requireUploadAllowed = async (auth: Auth, generation: 'v1' | 'v3' = 'v3'): Promise<void> => {
  await uploadLinkOf(auth, generation);
};
