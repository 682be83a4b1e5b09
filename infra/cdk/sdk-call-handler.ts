import { Stack, Validations } from 'aws-cdk-lib';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { AwsCustomResource } from 'aws-cdk-lib/custom-resources';
import type { Construct } from 'constructs';

/**
 * CDK's handler of deploy-time SDK calls (AwsCustomResource): one function for the stack, made by
 * whichever such resource comes first, run only at deploy time. Its memory set where CDK's call
 * left none (256 MB, as the ingress's sets), and cdk-nag's findings on it acknowledged with why
 * (`what`: the calls it makes for `scope`).
 */
export const acknowledgeSdkCallHandler = (scope: Construct, what: string): void => {
  const handler = Stack.of(scope).node.tryFindChild(`AWS${AwsCustomResource.PROVIDER_FUNCTION_UUID.replace(/-/g, '')}`);
  if (!handler) return;
  const fn = handler.node.defaultChild as CfnFunction;
  fn.memorySize ??= 256;
  const reason = `CDK’s handler of deploy-time SDK calls (AwsCustomResource: ${what}), run only at deploy time`;
  Validations.of(handler).acknowledge(
    {
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      reason: `${reason}; AWSLambdaBasicExecutionRole is what CDK gives it`,
    },
    { id: 'Serverless-LambdaDLQ', reason: `${reason}; CloudFormation waits for its answer and fails the deploy on an error` },
    { id: 'Serverless-LambdaTracing', reason: `${reason}; a few SDK calls, nothing a trace would show more of than its log` },
  );
};
