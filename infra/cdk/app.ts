import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { webBuildDir } from '../web-app.ts';
import { ImmichStack } from './stack.ts';

// Immich's web app, when the user supplies a build (WEB_DIR, default .web/build); `WEB_DIR=` (empty) deploys none.
const webDir = process.env.WEB_DIR === '' ? undefined : resolve(process.env.WEB_DIR ?? join(import.meta.dirname, '..', '..', webBuildDir));
const app = new App();
new ImmichStack(app, process.env.STACK_NAME ?? 'ImmichServerless', {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  webDir: webDir && existsSync(join(webDir, 'index.html')) ? webDir : undefined,
});
// cdk-nag's AWS Solutions and Serverless rules on every synth and deploy: a finding neither fixed
// nor acknowledged in code (with its reason, next to the construct) stops the synth.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app));
