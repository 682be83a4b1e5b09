/**
 * Reads what `cdk synth` wrote (the cloud assembly in cdk.out) the way CloudFormation and API
 * Gateway would deploy it: the HTTP API's routes → integrations → functions, each function's
 * bundle (its `aws:asset:path`), handler, memory, timeout and environment, and every IAM policy of
 * every role, across the main stack and its nested stacks. References to the table, bucket and
 * secret resolve to the local ones `npm run start:deployed` runs (docs/deployment.md).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { evaluatedOperators, type PolicyStatement } from './iam.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface Resource {
  Type: string;
  Properties?: Record<string, Json>;
  Metadata?: Record<string, Json>;
}

interface Template {
  Parameters?: Record<string, Json>;
  Resources: Record<string, Resource>;
}

export type { PolicyStatement } from './iam.ts';

export interface DeployedFunction {
  /** The function's logical id, prefixed by its nested stack's (`SharedLinkRoutes/CreateSharedLink…`). */
  id: string;
  /** The folder of its bundle in the assembly. */
  codeDir: string;
  /** `index.handler`: the module file (`index.mjs`) and its export. */
  handler: string;
  environment: Record<string, string>;
  memoryMb: number;
  timeoutSeconds: number;
  roleArn: string;
  /** The template's description (`Immich API v3:getSyncStream (POST /api/sync/stream)`). */
  description: string;
}

/** A path the distribution sends to a function URL, and the headers it adds (its origin's custom headers). */
export interface DeployedStreamBehavior {
  pathPattern: string;
  headers: Record<string, string>;
}

/**
 * A distribution behavior with a viewer-request CloudFront Function in front of the API or the
 * ingress (the upload routes' size rule: infra/web-app.ts): its function's code, the origin it
 * sends to unless the function selects another, and every such origin by id.
 */
export interface DeployedEdgeBehavior {
  pathPattern: string;
  originId: string;
  viewerRequest: { name: string; code: string };
}

/** An origin of the distribution a function may send a request to: the HTTP API, or the ingress (a VPC origin). */
export interface DeployedOrigin {
  kind: 'api' | 'ingress';
  /** Its custom headers (`x-origin-verify`), added to every request CloudFront sends it. */
  headers: Record<string, string>;
}

/**
 * The ingress (infra/ingress/): the EC2 instance tagged `immich:role=ingress`, read from its user
 * data as the instance reads it at boot (infra/cdk/ingress.ts): the bundle it fetches (the CDK
 * asset, found in the assembly by its object key), the environment file it writes, and the role its
 * instance profile gives it.
 */
export interface DeployedIngress {
  /** The instance's logical id (with its nested stack's prefix): how the gateway names the caller. */
  id: string;
  /** The folder of its bundle in the assembly (`main.mjs`). */
  codeDir: string;
  environment: Record<string, string>;
  roleArn: string;
}

export interface DeployedRoute {
  /** `GET /api/asset/{id}`, `ANY /{proxy+}`. */
  routeKey: string;
  functionId: string;
}

/** A bucket notification: objects created under `prefix` invoke the function (asynchronously). */
export interface DeployedNotification {
  functionId: string;
  prefix: string;
}

/** A function URL (AWS::Lambda::Url): the function, and whether it streams its answer. */
export interface DeployedFunctionUrl {
  functionId: string;
  invokeMode: 'BUFFERED' | 'RESPONSE_STREAM';
  authType: 'NONE' | 'AWS_IAM';
}

/** An EventBridge schedule (AWS::Events::Rule): every `rateMs` it invokes the function (asynchronously). */
export interface DeployedSchedule {
  functionId: string;
  rateMs: number;
}

/**
 * An EventBridge rule on events (AWS::Events::Rule with an EventPattern: MediaConvert's job state
 * changes for the transcode function): the pattern, and the function it invokes (asynchronously).
 */
export interface DeployedEventRule {
  functionId: string;
  pattern: Record<string, unknown>;
}

/** A WebSocket API (AWS::ApiGatewayV2::Api of protocol WEBSOCKET): its stage, and each route's Lambda integration or MOCK. */
export interface DeployedWebSocketApi {
  /** Its id as the template's references resolve it locally (its logical id). */
  apiId: string;
  stage: string;
  routes: { routeKey: string; target: { functionId: string } | 'MOCK' }[];
}

/** A path the distribution sends to a WebSocket API (its origin's domain names the API). */
export interface DeployedSocketBehavior {
  pathPattern: string;
  apiId: string;
}

export interface Deployment {
  functions: Map<string, DeployedFunction>;
  /** The WebSocket APIs (Immich's realtime socket) and the distribution's behaviors in front of them. */
  webSocketApis: DeployedWebSocketApi[];
  socketBehaviors: DeployedSocketBehavior[];
  /** The EventBridge schedules' targets. */
  schedules: DeployedSchedule[];
  /** The EventBridge rules on events, and their targets. */
  eventRules: DeployedEventRule[];
  functionUrls: DeployedFunctionUrl[];
  /** The distribution's behaviors whose origin is a function URL. */
  streamBehaviors: DeployedStreamBehavior[];
  /** Every behavior's path pattern, in the distribution's order (CloudFront takes the first that matches). */
  behaviorPatterns: string[];
  /** The behaviors with a viewer-request function before the API or the ingress, and those origins by id. */
  edgeBehaviors: DeployedEdgeBehavior[];
  origins: Map<string, DeployedOrigin>;
  /** The originals bucket's object-created notifications. */
  notifications: DeployedNotification[];
  /** The large uploads' ingress, unless the stack was synthesized without it (`-c largeUploads=off`). */
  ingress: DeployedIngress | undefined;
  routes: DeployedRoute[];
  /** IAM statements per role ARN, from every AWS::IAM::Policy (and inline role policy) of the assembly. */
  policies: Map<string, PolicyStatement[]>;
  /** The originals bucket's CORS rules (for the web app's origin: infra/cdk/stack.ts). */
  bucketCors: BucketCorsRule[];
  region: string;
  account: string;
  /**
   * The deploy-time OAuth settings' secret (`-c oauth=cognito`: infra/cdk/cognito.ts), served
   * locally under `LocalResources.oauthSecretArn`; absent from a template without it.
   */
  oauthSecret?: boolean;
}

export interface BucketCorsRule {
  AllowedMethods: string[];
  AllowedOrigins: Json[];
  AllowedHeaders?: string[];
  ExposedHeaders?: string[];
  MaxAge?: number;
}

/** What the stack's table, bucket and secret are locally. */
export interface LocalResources {
  tableName: string;
  bucketName: string;
  secretArn: string;
  /** The OAuth settings' secret of a `-c oauth=cognito` template (its own ARN: never the shared-link secret's). */
  oauthSecretArn?: string;
  region: string;
  account: string;
  /** The last part of every stack id (`AWS::StackId`), as CloudFormation gives each stack a UUID. */
  stackUuid: string;
}

interface Scope {
  stackName: string;
  template: Template;
  parameters: Record<string, Json>;
}

/** The Cognito form's settings secret (construct `OAuth/Settings` of infra/cdk/cognito.ts), by its logical id. */
const isOAuthSecret = (logicalId: string): boolean => /^OAuthSettings[0-9A-F]{8}$/.test(logicalId);
const oauthSecretArnOf = (local: LocalResources): string =>
  local.oauthSecretArn ?? `arn:aws:secretsmanager:${local.region}:${local.account}:secret:OAuthSettings-local0`;

const list = (value: Json | undefined): Json[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);

/** Evaluates the intrinsic functions CDK writes (Ref, Fn::GetAtt, Fn::Join, Fn::Sub, Fn::Select, Fn::Split); anything else fails loudly. */
const resolver = (local: LocalResources, scope: Scope) => {
  const physical = (logicalId: string, attribute?: string): string => {
    const resource = scope.template.Resources[logicalId];
    if (!resource) throw new Error(`${scope.stackName}: no resource ${logicalId}`);
    const { region, account } = local;
    switch (resource.Type) {
      case 'AWS::DynamoDB::GlobalTable':
      case 'AWS::DynamoDB::Table':
        return attribute === 'Arn' ? `arn:aws:dynamodb:${region}:${account}:table/${local.tableName}` : local.tableName;
      case 'AWS::S3::Bucket':
        return attribute === 'Arn' ? `arn:aws:s3:::${local.bucketName}` : local.bucketName;
      case 'AWS::SecretsManager::Secret':
        return isOAuthSecret(logicalId) ? oauthSecretArnOf(local) : local.secretArn;
      case 'AWS::IAM::Role':
        return attribute === 'Arn' ? `arn:aws:iam::${account}:role/${logicalId}` : logicalId;
      case 'AWS::Lambda::Function':
        return attribute === 'Arn' ? `arn:aws:lambda:${region}:${account}:function:${logicalId}` : logicalId;
      default:
        return attribute ? `${logicalId}.${attribute}` : logicalId;
    }
  };
  const ref = (name: string): Json => {
    const pseudo: Record<string, string> = {
      'AWS::Region': local.region,
      'AWS::AccountId': local.account,
      'AWS::Partition': 'aws',
      'AWS::URLSuffix': 'amazonaws.com',
      'AWS::StackName': scope.stackName,
      'AWS::StackId': `arn:aws:cloudformation:${local.region}:${local.account}:stack/${scope.stackName}/${local.stackUuid}`,
    };
    if (name in pseudo) return pseudo[name] ?? '';
    if (name in scope.parameters) return scope.parameters[name] ?? '';
    return physical(name);
  };
  const resolve = (value: Json): Json => {
    if (Array.isArray(value)) return value.map(resolve);
    if (value === null || typeof value !== 'object') return value;
    const keys = Object.keys(value);
    const [key] = keys;
    if (keys.length === 1 && key && (key === 'Ref' || key.startsWith('Fn::'))) {
      const argument = value[key] as Json;
      switch (key) {
        case 'Ref':
          return ref(String(argument));
        case 'Fn::GetAtt': {
          const [id, attribute] = Array.isArray(argument) ? argument.map(String) : String(argument).split('.');
          return physical(String(id), attribute);
        }
        case 'Fn::Join': {
          const [separator, parts] = argument as [string, Json[]];
          return list(resolve(parts)).map(String).join(separator);
        }
        case 'Fn::Split': {
          const [separator, text] = argument as [string, Json];
          return String(resolve(text)).split(separator);
        }
        case 'Fn::Base64':
          return Buffer.from(String(resolve(argument))).toString('base64');
        case 'Fn::Select': {
          const [index, items] = argument as [number, Json];
          return list(resolve(items))[Number(index)] ?? '';
        }
        case 'Fn::Sub': {
          const [text, variables] = typeof argument === 'string' ? [argument, {}] : (argument as [string, Record<string, Json>]);
          return text.replace(/\$\{([^}]+)\}/g, (_match, name: string) =>
            String(
              name in variables
                ? resolve(variables[name] ?? '')
                : name.includes('.')
                  ? physical(...(name.split('.') as [string, string]))
                  : ref(name),
            ),
          );
        }
        default:
          throw new Error(`${scope.stackName}: intrinsic ${key} is not supported locally`);
      }
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
  };
  return resolve;
};

const readTemplate = (dir: string, file: string): Template => JSON.parse(readFileSync(join(dir, file), 'utf8')) as Template;

/** Loads the stack `stackName` (and its nested stacks) from the cloud assembly in `dir`. */
export const loadDeployment = (dir: string, stackName: string, local: LocalResources): Deployment => {
  const deployment: Deployment = {
    functions: new Map(),
    webSocketApis: [],
    socketBehaviors: [],
    schedules: [],
    eventRules: [],
    functionUrls: [],
    streamBehaviors: [],
    behaviorPatterns: [],
    edgeBehaviors: [],
    origins: new Map(),
    notifications: [],
    ingress: undefined,
    routes: [],
    policies: new Map(),
    bucketCors: [],
    region: local.region,
    account: local.account,
    oauthSecret: false,
  };
  const notificationTargets: { arn: string; prefix: string }[] = [];
  const socketRoutes: ({ apiId: string } & DeployedWebSocketApi['routes'][number])[] = [];
  const scheduleTargets: { arn: string; rateMs: number }[] = [];
  const eventTargets: { arn: string; pattern: Record<string, unknown> }[] = [];
  const visit = (scope: Scope, prefix: string): void => {
    const resolve = resolver(local, scope);
    const resources = Object.entries(scope.template.Resources);
    // The functions behind custom resources (their ServiceToken) run at deploy time only: CDK's
    // handlers that empty a bucket or copy the web build into one.
    const deployTime = new Set(
      resources.flatMap(([, resource]) => {
        const token = resource.Properties?.ServiceToken as { 'Fn::GetAtt'?: [string, string] } | undefined;
        return token?.['Fn::GetAtt'] ? [token['Fn::GetAtt'][0]] : [];
      }),
    );
    for (const [logicalId, resource] of resources) {
      const properties = resource.Properties ?? {};
      switch (resource.Type) {
        case 'AWS::SecretsManager::Secret': {
          if (isOAuthSecret(logicalId)) deployment.oauthSecret = true;
          break;
        }
        case 'AWS::CloudFormation::Stack': {
          const file = String(resource.Metadata?.['aws:asset:path'] ?? '');
          if (!file) throw new Error(`${logicalId}: a nested stack without its template in the assembly`);
          const parameters = resolve(properties.Parameters ?? {}) as Record<string, Json>;
          visit({ stackName: `${scope.stackName}-${logicalId}`, template: readTemplate(dir, file), parameters }, `${prefix}${logicalId}/`);
          break;
        }
        case 'AWS::Lambda::Function': {
          // CloudFormation custom-resource handlers (inline code, or a custom resource's ServiceToken) run at deploy time only.
          if ((properties.Code as { ZipFile?: unknown } | undefined)?.ZipFile || deployTime.has(logicalId)) break;
          const code = String(resource.Metadata?.['aws:asset:path'] ?? '');
          if (!code) throw new Error(`${logicalId}: a function without its bundle in the assembly (synthesized without bundling?)`);
          const variables = resolve((properties.Environment as { Variables?: Json } | undefined)?.Variables ?? {}) as Record<string, Json>;
          deployment.functions.set(`${prefix}${logicalId}`, {
            id: `${prefix}${logicalId}`,
            codeDir: join(dir, code),
            handler: String(properties.Handler),
            environment: Object.fromEntries(Object.entries(variables).map(([name, value]) => [name, String(value)])),
            memoryMb: Number(properties.MemorySize ?? 128),
            timeoutSeconds: Number(properties.Timeout ?? 3),
            roleArn: String(resolve(properties.Role ?? '')),
            description: String(properties.Description ?? ''),
          });
          break;
        }
        case 'AWS::ApiGatewayV2::Api': {
          if (properties.ProtocolType !== 'WEBSOCKET') break;
          const stage = resources.find(
            ([, each]) =>
              each.Type === 'AWS::ApiGatewayV2::Stage' && JSON.stringify(each.Properties?.ApiId) === JSON.stringify({ Ref: logicalId }),
          );
          if (!stage) throw new Error(`${logicalId}: a WebSocket API without a stage`);
          deployment.webSocketApis.push({ apiId: logicalId, stage: String(stage[1].Properties?.StageName), routes: [] });
          break;
        }
        case 'AWS::ApiGatewayV2::Route': {
          // Target `integrations/<IntegrationRef>` → the integration's IntegrationUri → the function.
          const target = String(properties.Target ? JSON.stringify(properties.Target) : '');
          const integrationId = /"Ref":"([^"]+)"/.exec(target)?.[1];
          const integration = integrationId ? scope.template.Resources[integrationId] : undefined;
          const apiId = (properties.ApiId as { Ref?: string } | undefined)?.Ref;
          const socketApi = scope.template.Resources[apiId ?? '']?.Properties?.ProtocolType === 'WEBSOCKET' ? apiId : undefined;
          if (socketApi) {
            // A WebSocket route: a Lambda proxy integration (its URI names the function's Arn) or a MOCK.
            const type = integration?.Properties?.IntegrationType;
            const uriFunction = /"Fn::GetAtt":\["([^"]+)","Arn"\]/.exec(JSON.stringify(integration?.Properties?.IntegrationUri ?? ''))?.[1];
            if (type !== 'MOCK' && !(type === 'AWS_PROXY' && uriFunction))
              throw new Error(`${logicalId}: only Lambda proxy and MOCK integrations of a WebSocket API are served locally`);
            socketRoutes.push({
              apiId: `${prefix}${socketApi}`,
              routeKey: String(properties.RouteKey),
              target: type === 'MOCK' ? 'MOCK' : { functionId: `${prefix}${uriFunction}` },
            });
            break;
          }
          const uri = integration?.Properties?.IntegrationUri as { 'Fn::GetAtt'?: [string, string] } | undefined;
          const functionId = uri?.['Fn::GetAtt']?.[0];
          if (integration?.Properties?.PayloadFormatVersion !== '2.0' || !functionId) {
            throw new Error(`${logicalId}: only Lambda proxy integrations with payload format 2.0 are served locally`);
          }
          deployment.routes.push({ routeKey: String(properties.RouteKey), functionId: `${prefix}${functionId}` });
          break;
        }
        case 'AWS::Lambda::Url': {
          const target = properties.TargetFunctionArn as { 'Fn::GetAtt'?: [string, string] } | undefined;
          const functionId = target?.['Fn::GetAtt']?.[0];
          if (!functionId) throw new Error(`${logicalId}: a function URL of a function outside its stack is not served locally`);
          deployment.functionUrls.push({
            functionId: `${prefix}${functionId}`,
            invokeMode: properties.InvokeMode === 'RESPONSE_STREAM' ? 'RESPONSE_STREAM' : 'BUFFERED',
            authType: properties.AuthType === 'AWS_IAM' ? 'AWS_IAM' : 'NONE',
          });
          break;
        }
        case 'AWS::CloudFront::Distribution': {
          const config = properties.DistributionConfig as {
            Origins?: {
              Id: string;
              DomainName: Json;
              OriginCustomHeaders?: { HeaderName: string; HeaderValue: Json }[];
              VpcOriginConfig?: Json;
            }[];
            CacheBehaviors?: {
              PathPattern: string;
              TargetOriginId: string;
              FunctionAssociations?: { EventType: string; FunctionARN: Json }[];
            }[];
          };
          // The API (an HTTP API's domain) and the ingress (a VPC origin: the instance, infra/cdk/ingress.ts).
          for (const origin of config.Origins ?? []) {
            const api = /"Ref":"([^"]+)"/.exec(JSON.stringify(origin.DomainName))?.[1];
            const isHttpApi =
              api !== undefined &&
              scope.template.Resources[api]?.Type === 'AWS::ApiGatewayV2::Api' &&
              scope.template.Resources[api]?.Properties?.ProtocolType !== 'WEBSOCKET';
            const kind = origin.VpcOriginConfig ? 'ingress' : isHttpApi ? 'api' : undefined;
            if (!kind) continue;
            deployment.origins.set(origin.Id, {
              kind,
              headers: Object.fromEntries(
                (origin.OriginCustomHeaders ?? []).map((header) => [header.HeaderName, String(resolve(header.HeaderValue))]),
              ),
            });
          }
          for (const behavior of config.CacheBehaviors ?? []) {
            deployment.behaviorPatterns.push(behavior.PathPattern);
            const viewerRequest = (behavior.FunctionAssociations ?? []).find((each) => each.EventType === 'viewer-request');
            const functionId = /"Fn::GetAtt":\["([^"]+)"/.exec(JSON.stringify(viewerRequest?.FunctionARN ?? ''))?.[1];
            const edgeFunction = functionId ? scope.template.Resources[functionId] : undefined;
            if (edgeFunction && deployment.origins.has(behavior.TargetOriginId)) {
              if (edgeFunction.Type !== 'AWS::CloudFront::Function' || !edgeFunction.Properties?.FunctionCode)
                throw new Error(`${behavior.PathPattern}: a viewer-request function that is not a CloudFront Function with its code`);
              deployment.edgeBehaviors.push({
                pathPattern: behavior.PathPattern,
                originId: behavior.TargetOriginId,
                viewerRequest: { name: String(functionId), code: String(resolve(edgeFunction.Properties.FunctionCode)) },
              });
            }
            const origin = config.Origins?.find((each) => each.Id === behavior.TargetOriginId);
            // A WebSocket API's domain names the API (`<api id>.execute-api.<region>…`).
            const socketApi = /"Ref":"([^"]+)"/.exec(JSON.stringify(origin?.DomainName ?? ''))?.[1];
            if (socketApi && scope.template.Resources[socketApi]?.Properties?.ProtocolType === 'WEBSOCKET') {
              deployment.socketBehaviors.push({ pathPattern: behavior.PathPattern, apiId: `${prefix}${socketApi}` });
              continue;
            }
            // A function URL's domain is read from its URL (an attribute CDK names FunctionUrl).
            if (!origin || !JSON.stringify(origin.DomainName).includes('FunctionUrl')) continue;
            deployment.streamBehaviors.push({
              pathPattern: behavior.PathPattern,
              headers: Object.fromEntries(
                (origin.OriginCustomHeaders ?? []).map((header) => [header.HeaderName, String(resolve(header.HeaderValue))]),
              ),
            });
          }
          break;
        }
        case 'AWS::EC2::Instance': {
          const tags = list(properties.Tags ?? []) as { Key?: Json; Value?: Json }[];
          if (!tags.some((tag) => tag.Key === 'immich:role' && tag.Value === 'ingress')) break;
          if (deployment.ingress) throw new Error(`${logicalId}: a second instance tagged immich:role=ingress`);
          deployment.ingress = ingressOf(dir, stackName, `${prefix}${logicalId}`, scope, resolve, properties);
          break;
        }
        case 'AWS::S3::Bucket': {
          const rules = (properties.CorsConfiguration as { CorsRules?: BucketCorsRule[] } | undefined)?.CorsRules;
          if (rules) deployment.bucketCors.push(...rules);
          break;
        }
        case 'AWS::Events::Rule': {
          // A rule on events (not a schedule): its pattern and targets, delivered by `putEvent` (infra/local/deployed/start.ts).
          if (properties.EventPattern) {
            const pattern = resolve(properties.EventPattern) as Record<string, unknown>;
            for (const target of list(resolve(properties.Targets ?? [])) as { Arn: string }[])
              eventTargets.push({ arn: target.Arn, pattern });
            break;
          }
          // `rate(N unit)` only: the stack's schedules are rates (cron expressions are refused, not guessed).
          const expression = String(properties.ScheduleExpression ?? '');
          const rate = /^rate\((\d+) (minute|minutes|hour|hours|day|days)\)$/.exec(expression);
          if (!rate) throw new Error(`${logicalId}: schedule ${expression || '(none)'} is not supported locally`);
          const unitMs = rate[2]?.startsWith('minute') ? 60_000 : rate[2]?.startsWith('hour') ? 3_600_000 : 86_400_000;
          for (const target of list(resolve(properties.Targets ?? [])) as { Arn: string }[])
            scheduleTargets.push({ arn: target.Arn, rateMs: Number(rate[1]) * unitMs });
          break;
        }
        case 'Custom::S3BucketNotifications': {
          const configuration = resolve(properties.NotificationConfiguration ?? {}) as {
            LambdaFunctionConfigurations?: {
              Events: string[];
              LambdaFunctionArn: string;
              Filter?: { Key?: { FilterRules?: { Name: string; Value: string }[] } };
            }[];
          };
          for (const target of configuration.LambdaFunctionConfigurations ?? []) {
            if (!target.Events.some((event) => event.startsWith('s3:ObjectCreated'))) continue;
            const prefix = target.Filter?.Key?.FilterRules?.find((rule) => rule.Name.toLowerCase() === 'prefix')?.Value ?? '';
            notificationTargets.push({ arn: target.LambdaFunctionArn, prefix });
          }
          break;
        }
        case 'AWS::IAM::Policy': {
          const document = resolve(properties.PolicyDocument ?? {}) as { Statement?: Json[] };
          for (const role of list(resolve(properties.Roles ?? []))) {
            const arn = `arn:aws:iam::${local.account}:role/${String(role)}`;
            deployment.policies.set(arn, [...(deployment.policies.get(arn) ?? []), ...statements(document)]);
          }
          break;
        }
        case 'AWS::IAM::Role': {
          const arn = `arn:aws:iam::${local.account}:role/${logicalId}`;
          const inline = list(resolve(properties.Policies ?? [])).flatMap((policy) =>
            statements((policy as { PolicyDocument: { Statement?: Json[] } }).PolicyDocument),
          );
          deployment.policies.set(arn, [...(deployment.policies.get(arn) ?? []), ...inline]);
          break;
        }
      }
    }
  };
  visit({ stackName, template: readTemplate(dir, `${stackName}.template.json`), parameters: {} }, '');
  // The APIs were recorded under their logical ids; their routes know them with their stack's prefix.
  for (const api of deployment.webSocketApis) {
    api.routes = socketRoutes
      .filter((route) => route.apiId.split('/').pop() === api.apiId)
      .map(({ routeKey, target }) => ({ routeKey, target }));
  }
  for (const behavior of deployment.socketBehaviors) behavior.apiId = behavior.apiId.split('/').pop() ?? behavior.apiId;
  for (const { arn, prefix } of notificationTargets) {
    const logicalId = arn.split(':').pop() ?? '';
    const fn = [...deployment.functions.values()].find((each) => each.id.split('/').pop() === logicalId);
    if (!fn) throw new Error(`A bucket notification targets ${arn}, which is not a function of the assembly`);
    deployment.notifications.push({ functionId: fn.id, prefix });
  }
  for (const { arn, pattern } of eventTargets) {
    const logicalId = arn.split(':').pop() ?? '';
    const fn = [...deployment.functions.values()].find((each) => each.id.split('/').pop() === logicalId);
    if (!fn) throw new Error(`An event rule targets ${arn}, which is not a function of the assembly`);
    deployment.eventRules.push({ functionId: fn.id, pattern });
  }
  for (const { arn, rateMs } of scheduleTargets) {
    const logicalId = arn.split(':').pop() ?? '';
    const fn = [...deployment.functions.values()].find((each) => each.id.split('/').pop() === logicalId);
    if (!fn) throw new Error(`A schedule targets ${arn}, which is not a function of the assembly`);
    deployment.schedules.push({ functionId: fn.id, rateMs });
  }
  return deployment;
};

/**
 * The ingress instance's user data (CDK's, base64 of the script): the line naming its bundle
 * (`# immich-ingress-bundle s3://<bucket>/<key>`), the environment between
 * `# immich-ingress-env-begin` and `# immich-ingress-env-end` (`KEY=VALUE` lines), and its role
 * (the instance profile's). The bundle's object key is the CDK asset's: the assembly's asset
 * manifest names the folder it was zipped from.
 */
const ingressOf = (
  dir: string,
  stackName: string,
  id: string,
  scope: Scope,
  resolve: (value: Json) => Json,
  properties: Record<string, Json>,
): DeployedIngress => {
  const script = Buffer.from(String(resolve(properties.UserData ?? '')), 'base64').toString('utf8');
  const lines = script.split('\n').map((line) => line.trim());
  const bundle = /^# immich-ingress-bundle s3:\/\/[^/]+\/(\S+)$/.exec(
    lines.find((line) => line.startsWith('# immich-ingress-bundle ')) ?? '',
  )?.[1];
  if (!bundle) throw new Error(`${id}: its user data names no bundle (# immich-ingress-bundle s3://…)`);
  const manifest = JSON.parse(readFileSync(join(dir, `${stackName}.assets.json`), 'utf8')) as {
    files?: Record<string, { source: { path?: string }; destinations: Record<string, { objectKey: string }> }>;
  };
  const asset = Object.values(manifest.files ?? {}).find((file) =>
    Object.values(file.destinations).some((destination) => destination.objectKey === bundle),
  );
  if (!asset?.source.path) throw new Error(`${id}: its bundle ${bundle} is no asset of the assembly`);
  const begin = lines.indexOf('# immich-ingress-env-begin');
  const end = lines.indexOf('# immich-ingress-env-end');
  if (begin < 0 || end < begin) throw new Error(`${id}: its user data has no environment block`);
  const environment = Object.fromEntries(
    lines
      .slice(begin + 1, end)
      .filter((line) => line && !line.startsWith('#'))
      .map((line) => {
        const at = line.indexOf('=');
        if (at <= 0) throw new Error(`${id}: ${line} is not KEY=VALUE`);
        return [line.slice(0, at), line.slice(at + 1)];
      }),
  );
  const profileId = (properties.IamInstanceProfile as { Ref?: string } | undefined)?.Ref;
  const profile = profileId ? scope.template.Resources[profileId] : undefined;
  if (profile?.Type !== 'AWS::IAM::InstanceProfile') throw new Error(`${id}: no instance profile of its stack`);
  const [role] = list(resolve(profile.Properties?.Roles ?? [])).map(String);
  if (!role) throw new Error(`${id}: its instance profile has no role`);
  return {
    id,
    codeDir: join(dir, asset.source.path),
    environment,
    roleArn: `arn:aws:iam::${String(resolve({ Ref: 'AWS::AccountId' }))}:role/${role}`,
  };
};

const statements = (document: { Statement?: Json[] }): PolicyStatement[] =>
  list(document.Statement as Json).map((statement) => {
    const { Effect, Action, Resource, Condition, NotAction, NotResource } = statement as Record<string, Json>;
    // CDK writes neither for these policies; refuse to guess what one would mean.
    if (NotAction || NotResource) throw new Error('Policy statements with NotAction or NotResource are not evaluated locally');
    const condition = Condition
      ? Object.fromEntries(
          Object.entries(Condition as Record<string, Record<string, Json>>).map(([operator, entries]) => {
            if (!evaluatedOperators.has(operator)) throw new Error(`The condition operator ${operator} is not evaluated locally`);
            return [operator, Object.fromEntries(Object.entries(entries).map(([key, values]) => [key, list(values).map(String)]))];
          }),
        )
      : undefined;
    return {
      Effect: Effect === 'Deny' ? 'Deny' : 'Allow',
      Action: list(Action).map(String),
      Resource: list(Resource).map(String),
      ...(condition ? { Condition: condition } : {}),
    };
  });

/**
 * Whether an event matches an EventBridge pattern, for the patterns the stack writes: each field
 * a list of values one of which the event's must equal, or an object matched field by field
 * (EventBridge's content filters — prefix, numeric, exists — are not used, and match nothing here).
 */
export const matchesEventPattern = (pattern: Record<string, unknown>, event: unknown): boolean =>
  Object.entries(pattern).every(([field, expected]) => {
    const value = (event as Record<string, unknown> | null | undefined)?.[field];
    if (Array.isArray(expected)) return expected.some((each) => typeof each !== 'object' && each === value);
    return typeof expected === 'object' && expected !== null && matchesEventPattern(expected as Record<string, unknown>, value);
  });
