import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { ImmichStack } from './stack.ts';

const app = new App();
new ImmichStack(app, process.env.STACK_NAME ?? 'ImmichServerless', {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
// cdk-nag's AWS Solutions and Serverless rules on every synth and deploy: a finding neither fixed
// nor acknowledged in code (with its reason, next to the construct) stops the synth.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app));
