import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as albumSyncRepo from '#shared/db/album-sync.repository.ts';
import { db, tableName } from '#shared/db/client.ts';
import * as keys from '#shared/db/item-keys.ts';

/**
 * A deploy of the stack, as its custom resource records it (`SYSTEM` / `DEPLOYMENT`: the
 * functions' new generation, infra/cdk/deployment-mark.ts), for the length of `run`: `drained()`
 * moves it past the time the old functions' runs may go on (shared/db/album-sync.repository.ts,
 * `deployDrainMs`). The item is gone again after, as on the local server.
 */
export const duringDeploy = async <T>(generation: string, run: (drained: () => Promise<void>) => Promise<T>): Promise<T> => {
  await db.send(new PutCommand({ TableName: tableName, Item: { ...keys.deployment(), type: 'deployment', generation } }));
  const drained = async () => {
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.deployment(),
        UpdateExpression: 'SET seenAt = :then',
        ExpressionAttributeValues: { ':then': Date.now() - albumSyncRepo.deployDrainMs - 1_000 },
      }),
    );
  };
  try {
    return await run(drained);
  } finally {
    await db.send(new DeleteCommand({ TableName: tableName, Key: keys.deployment() }));
  }
};
