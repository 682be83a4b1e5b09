import { Stack, Validations } from 'aws-cdk-lib';
import { type IRole, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference.js';
import type { Construct } from 'constructs';

/**
 * What the functions that run models get (docs/deployment.md, "Smart search and OCR"): the media
 * function, and the routes whose row names the `ml` group (infra/routes.ts `runsModels`).
 */

/** Where a deployer's CLIP models are in the originals bucket: `models/clip/<model>/…`, an Immich ML cache folder's layout. */
export const modelsPrefix = 'models/';

/**
 * The ML service's auth header secret (`-c mlAuthSecretArn=<full ARN>`): a Secrets Manager secret
 * `{"name": …, "value": …}` the deployer made for the reverse proxy in front of their Immich ML
 * service. The stack never creates it (its value is the deployer's proxy's), and without it no header is sent.
 */
export const mlAuthSecretArn = (scope: Construct): string | undefined => {
  const arn = scope.node.tryGetContext('mlAuthSecretArn') as unknown;
  if (arn === undefined || arn === '') return undefined;
  if (typeof arn !== 'string' || !/^arn:aws[\w-]*:secretsmanager:[\w-]+:\d{12}:secret:.+-[A-Za-z0-9]{6}$/.test(arn))
    throw new Error(`-c mlAuthSecretArn must be a secret's full ARN (ending in its six-character suffix), not ${String(arn)}`);
  return arn;
};

/** The environment of a function that runs models: the bucket its models are in, and the auth secret's ARN when there is one. */
export const mlEnvironment = (originals: IBucket, authSecretArn: string | undefined): Record<string, string> => ({
  ML_MODELS_BUCKET: originals.bucketName,
  ...(authSecretArn ? { ML_AUTH_SECRET_ARN: authSecretArn } : {}),
});

/**
 * A role's grants for running models: read the objects under `models/`, list that prefix (so that a
 * model not uploaded is S3's 404, not its 403: shared/ml/local/ tells "no model" from a failure),
 * and read the auth secret, that one secret, when the deployer gave one.
 */
export const grantModels = (role: IRole, originals: IBucket, authSecretArn: string | undefined, objectsReadable = false): void => {
  if (!objectsReadable) {
    const objects = originals.arnForObjects(`${modelsPrefix}*`);
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['s3:GetObject'], resources: [objects] }));
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${flattenCfnReference(Stack.of(role).resolve(objects))}]`,
      reason: 'The wildcard covers only the models the deployer uploaded under models/ (docs/deployment.md, "Smart search and OCR")',
    });
  }
  role.addToPrincipalPolicy(
    new PolicyStatement({
      actions: ['s3:ListBucket'],
      resources: [originals.bucketArn],
      conditions: { StringLike: { 's3:prefix': [`${modelsPrefix}*`] } },
    }),
  );
  if (authSecretArn)
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [authSecretArn] }));
};
