import { SessionUnlockDto } from '#shared/dto/v3/auth.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { unlockSession } from '#shared/services/pin-code.service.ts';

// Immich's `@Authenticated()` without a permission: a key needs `all` (and is then refused: a session only);
// the PIN code proves the rest.
export const handler = httpHandler(
  { generation: 'v3', access: 'user', body: SessionUnlockDto, returns: returns<void>(), status: 204 },
  ({ auth, body }) => unlockSession(auth, body.pinCode),
);
