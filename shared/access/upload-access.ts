/**
 * Who may upload (POST /asset/upload, POST /assets, and the ingress that takes large uploads for
 * them: docs/large-uploads.md): a signed-in user, or an API key with `asset.upload`.
 */
import type { Auth } from '../model/user.ts';
import type { RouteRule } from './route.ts';

/** The upload routes' rule, which the ingress authenticates with too. */
export const uploadRule: RouteRule = { access: 'user', permission: 'asset.upload' };

/** The caller may upload once the route's rule let them in. */
export const requireUploadAllowed = (_auth: Auth): void => {};
