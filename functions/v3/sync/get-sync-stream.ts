import { mapSyncLine } from '#shared/dto/v3/sync.response.ts';
import { SyncStreamBody } from '#shared/dto/v3/sync.ts';
import { streamingHandler } from '#shared/http/stream-handler.ts';
import { prepareSyncStream } from '#shared/services/sync/stream.service.ts';

// The mobile app's sync: JSON lines, streamed as they are read (docs/immich-compatibility.md, "The sync stream").
export const handler = streamingHandler(
  { generation: 'v3', access: 'user', permission: 'sync.stream', body: SyncStreamBody, contentType: 'application/jsonlines+json' },
  async ({ auth, body }) => {
    const stream = await prepareSyncStream(auth, body);
    // Ended early (its deadline or Lambda's 200 MB near) after a whole run: the app's next sync goes on from its acks.
    return (lines) =>
      stream(
        (event) => Promise.resolve(lines.write(mapSyncLine(event))),
        () => lines.ending(),
      );
  },
);
