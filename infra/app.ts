import { App } from 'aws-cdk-lib';
import { ImmichStack } from './stack.ts';

const app = new App();
new ImmichStack(app, process.env.STACK_NAME ?? 'ImmichServerless', {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
