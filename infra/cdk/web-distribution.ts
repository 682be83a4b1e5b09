import { CfnOutput, DefaultStackSynthesizer, Duration, RemovalPolicy, Stack, Token, Validations } from 'aws-cdk-lib';
import type { HttpApi, IWebSocketApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  type BehaviorOptions,
  CachePolicy,
  Distribution,
  Function as EdgeFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { FunctionUrlOrigin, HttpOrigin, S3BucketOrigin, VpcOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { IInstance } from 'aws-cdk-lib/aws-ec2';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { BlockPublicAccess, Bucket, BucketEncryption, type CfnBucket, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { bodyLimitBytes, deployedUploadLimitMb } from '../routes.ts';
import {
  apiPaths,
  appRouteFunctionCode,
  immutableCacheControl,
  immutablePrefix,
  originIds,
  realtimeFunctionCode,
  realtimePrefix,
  revalidateCacheControl,
  securityHeaders,
  sharePagePaths,
  strictTransportSecurity,
  uploadPaths,
  uploadRoutingFunctionCode,
  viewerHostFunctionCode,
} from '../web-app.ts';
import { ingressPort } from './ingress.ts';
import type { StreamOrigin } from './route-stack.ts';

export interface WebDistributionProps {
  api: HttpApi;
  /** Immich's realtime socket: the WebSocket API and its stage (infra/cdk/realtime.ts). */
  realtime: { api: IWebSocketApi; stage: string };
  /** The streaming routes' function URLs, each a behavior of its own in front of the API's. */
  streams?: readonly StreamOrigin[];
  /** Sent to those origins in `x-origin-verify` (infra/cdk/route-stack.ts). */
  originVerify?: string;
  /**
   * The ingress's instance (infra/cdk/ingress.ts), which large uploads go to as a VPC origin;
   * without one (`-c largeUploads=off`) a large upload is answered with a 413 at the edge.
   */
  ingress?: IInstance | undefined;
  /** A build of Immich's web app (the user's, from WEB_DIR); without one the bucket stays empty until a deploy with it. */
  webDir?: string | undefined;
  /** A custom domain (`-c domainName=photos.example.com -c certificateArn=arn:aws:acm:us-east-1:…`). */
  domainName?: string | undefined;
  certificateArn?: string | undefined;
}

/**
 * One origin for Immich's web app and the API (docs/web-app.md): CloudFront in front of a private
 * bucket holding the app's build (origin access control) and of the HTTP API. `/api/*`,
 * `/.well-known/immich` and `/custom.css` go to the API uncached, with every header (cookies,
 * `Authorization`, `x-api-key`, `x-immich-*`) and query string but `Host`; `/_app/immutable/*` is
 * cached a year; any other path is the app: an app route (`isAppRoute`) is answered with
 * `index.html`, a missing file is a 404. HTTPS only, with the security headers of web-app.ts.
 */
export class WebDistribution extends Construct {
  readonly distribution: Distribution;
  /** `https://…`: the app, and the API at `/api` below it. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: WebDistributionProps) {
    super(scope, id);
    const stack = Stack.of(this);
    if (Boolean(props.domainName) !== Boolean(props.certificateArn))
      throw new Error('A custom domain needs both -c domainName=… and -c certificateArn=… (an ACM certificate in us-east-1)');

    // The build: rebuilt from Immich's source at will, so it goes with the stack.
    const site = new Bucket(this, 'Site', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });
    Validations.of(site).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'Holds only the public build of Immich’s web app, read by CloudFront alone; its requests are CloudFront’s, which a standard log would show',
    });

    const siteOrigin = S3BucketOrigin.withOriginAccessControl(site);
    const apiOrigin = new HttpOrigin(`${props.api.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`, {
      // Named: the upload paths' function selects it by id (uploadRoutingFunctionCode).
      originId: originIds.api,
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
      readTimeout: Duration.seconds(30),
    });

    const headers = (id: string, cacheControl?: string) =>
      new ResponseHeadersPolicy(this, id, {
        comment: `Immich ${stack.stackName}: security headers${cacheControl ? `, cache-control ${cacheControl}` : ''}`,
        securityHeadersBehavior: {
          contentTypeOptions: { override: true },
          frameOptions: { frameOption: HeadersFrameOption.SAMEORIGIN, override: true },
          referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.SAME_ORIGIN, override: true },
          contentSecurityPolicy: { contentSecurityPolicy: securityHeaders['content-security-policy'], override: true },
          strictTransportSecurity: { accessControlMaxAge: Duration.seconds(strictTransportSecurity.maxAgeSeconds), override: true },
        },
        ...(cacheControl
          ? { customHeadersBehavior: { customHeaders: [{ header: 'cache-control', value: cacheControl, override: true }] } }
          : {}),
      });

    const api: BehaviorOptions = {
      origin: apiOrigin,
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      responseHeadersPolicy: headers('ApiHeaders'),
      compress: true,
    };
    // A streamed answer: never cached (a POST), but gzip in the cache key, so the viewer's
    // Accept-Encoding reaches the function, which compresses as it streams (CloudFront would
    // not compress an answer of unknown length).
    const streamPolicy =
      (props.streams ?? []).length > 0
        ? new CachePolicy(this, 'StreamPolicy', {
            comment: `Immich ${stack.stackName}: streamed answers (not cached; gzip passed on)`,
            defaultTtl: Duration.seconds(0),
            minTtl: Duration.seconds(0),
            maxTtl: Duration.seconds(1),
            enableAcceptEncodingGzip: true,
          })
        : undefined;
    const streamHeaders = (props.streams ?? []).length > 0 ? headers('StreamHeaders') : undefined;
    const streamBehaviors = Object.fromEntries(
      (props.streams ?? []).map((stream): [string, BehaviorOptions] => [
        stream.path,
        {
          origin: new FunctionUrlOrigin(stream.url, {
            readTimeout: Duration.seconds(60),
            customHeaders: { 'x-origin-verify': props.originVerify ?? '' },
          }),
          viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          ...(streamPolicy ? { cachePolicy: streamPolicy } : {}),
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          ...(streamHeaders ? { responseHeadersPolicy: streamHeaders } : {}),
          compress: false,
        },
      ]),
    );
    const app = (id: string, cacheControl: string): BehaviorOptions => ({
      origin: siteOrigin,
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      cachePolicy: CachePolicy.CACHING_OPTIMIZED,
      responseHeadersPolicy: headers(id, cacheControl),
      compress: true,
    });

    // Immich's socket (docs/web-app.md, "Realtime"): the WebSocket API, at its stage's root.
    const socketPath = new EdgeFunction(this, 'RealtimePath', {
      runtime: FunctionRuntime.JS_2_0,
      comment: 'Immich’s realtime socket: /api/socket.io/ to the WebSocket API’s stage',
      code: FunctionCode.fromInline(realtimeFunctionCode(props.realtime.stage)),
    });
    const socket: BehaviorOptions = {
      origin: new HttpOrigin(`${props.realtime.api.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`, {
        protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
      }),
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      // The upgrade's Sec-WebSocket-* headers, its cookie (the session) and User-Agent (the app's
      // generation), every credential header, and the query; not Host (API Gateway's own).
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      functionAssociations: [{ function: socketPath, eventType: FunctionEventType.VIEWER_REQUEST }],
      ...(api.responseHeadersPolicy ? { responseHeadersPolicy: api.responseHeadersPolicy } : {}),
      compress: false,
    };
    const appRoutes = new EdgeFunction(this, 'AppRoutes', {
      runtime: FunctionRuntime.JS_2_0,
      comment: 'Answers Immich web app routes with index.html',
      code: FunctionCode.fromInline(appRouteFunctionCode),
    });

    // The share pages (beside a build): the API's behaviour, with the viewer's host passed on.
    const viewerHost = props.webDir
      ? new EdgeFunction(this, 'ViewerHost', {
          runtime: FunctionRuntime.JS_2_0,
          comment: 'Share pages: passes the host the visitor reached on as x-viewer-host',
          code: FunctionCode.fromInline(viewerHostFunctionCode),
        })
      : undefined;
    const sharePage: BehaviorOptions | undefined = viewerHost
      ? { ...api, functionAssociations: [{ function: viewerHost, eventType: FunctionEventType.VIEWER_REQUEST }] }
      : undefined;

    // The stock clients' upload paths (docs/large-uploads.md): a large POST cannot reach Lambda
    // (its 6 MB request), so the viewer-request function sends it to the ingress (a VPC origin of
    // the instance, HTTP inside the VPC, the stack's token added), everything else to the API; with
    // no ingress it answers a large POST with a 413 that says how to upload large files. CloudFront
    // makes an origin of what a behaviour names only, so the ingress is these behaviours' origin:
    // a large upload stays there, and the function selects the API's origin by id for the rest.
    const uploadRouting = new EdgeFunction(this, 'UploadRouting', {
      runtime: FunctionRuntime.JS_2_0,
      comment: props.ingress ? 'Immich uploads: a large POST to the ingress, the rest to the API' : 'Immich uploads: a large POST is a 413',
      code: FunctionCode.fromInline(
        uploadRoutingFunctionCode({
          limitBytes: bodyLimitBytes({ body: 'upload' }, deployedUploadLimitMb),
          large: props.ingress ? 'ingress' : 'refuse',
        }),
      ),
    });
    const uploadOrigin = props.ingress
      ? VpcOrigin.withEc2Instance(props.ingress, {
          originId: originIds.ingress,
          httpPort: ingressPort,
          protocolPolicy: OriginProtocolPolicy.HTTP_ONLY,
          customHeaders: { 'x-origin-verify': props.originVerify ?? '' },
          // The wait for the answer once the body is sent (the upload's recording), at most 120 s without a quota raise.
          readTimeout: Duration.seconds(120),
          keepaliveTimeout: Duration.seconds(60),
        })
      : apiOrigin;
    const upload: BehaviorOptions = {
      ...api,
      origin: uploadOrigin,
      functionAssociations: [{ function: uploadRouting, eventType: FunctionEventType.VIEWER_REQUEST }],
    };

    const certificate = props.certificateArn ? Certificate.fromCertificateArn(this, 'Certificate', props.certificateArn) : undefined;
    this.distribution = new Distribution(this, 'Distribution', {
      comment: `Immich ${stack.stackName}: web app and API`,
      defaultRootObject: 'index.html',
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      ...(certificate && props.domainName
        ? { certificate, domainNames: [props.domainName], minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021 }
        : {}),
      defaultBehavior: {
        ...app('AppHeaders', revalidateCacheControl),
        functionAssociations: [{ function: appRoutes, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: {
        // First: CloudFront takes the first pattern that matches, and this one is inside /api/*.
        [`${realtimePrefix}*`]: socket,
        ...streamBehaviors,
        // Before /api/*, which they are inside of.
        ...Object.fromEntries(uploadPaths.map((path) => [path, upload])),
        ...Object.fromEntries(apiPaths.map((path) => [path, api])),
        ...(sharePage ? Object.fromEntries(sharePagePaths.map((path) => [path, sharePage])) : {}),
        [`${immutablePrefix}*`]: app('ImmutableHeaders', immutableCacheControl),
      },
    });
    // CloudFront may list the bucket, so a missing file is S3's 404 rather than a 403.
    site.addToResourcePolicy(
      new PolicyStatement({
        actions: ['s3:ListBucket'],
        resources: [site.bucketArn],
        principals: [new ServicePrincipal('cloudfront.amazonaws.com')],
        conditions: { StringEquals: { 'AWS:SourceArn': this.distribution.distributionArn } },
      }),
    );
    Validations.of(this.distribution).acknowledge(
      {
        id: 'AwsSolutions-CFR1',
        reason: 'A personal photo server is used wherever its owner travels; a geo restriction would lock them out abroad',
      },
      {
        id: 'AwsSolutions-CFR2',
        reason:
          'WAF costs more a month than the rest of a personal deployment; the API is throttled at API Gateway and every route authenticates',
      },
      {
        id: 'AwsSolutions-CFR3',
        reason:
          'The API behind it logs every request (API Gateway access log); the app’s own files are public code, not worth a log bucket',
      },
      {
        id: 'AwsSolutions-CFR4',
        reason:
          'TLS 1.2 is the minimum with a custom domain; the default cloudfront.net certificate cannot set one (CloudFront allows TLSv1 there)',
      },
    );

    if (props.webDir) {
      // The build's compressed siblings are left out: CloudFront compresses for each viewer.
      new BucketDeployment(this, 'Build', {
        sources: [Source.asset(props.webDir, { exclude: ['*.br', '*.gz', 'stats.html'] })],
        destinationBucket: site,
        distribution: this.distribution,
        distributionPaths: ['/*'],
        memoryLimit: 512,
      });
      // CDK's own deploy-time handler that copies the build into the bucket and invalidates the
      // cache: it runs only during `cdk deploy`, with the permissions CDK gives it.
      const handler = stack.node.children.find((child) => child.node.id.startsWith('Custom::CDKBucketDeployment'));
      if (handler) {
        const reason =
          'CDK’s BucketDeployment handler, run only at deploy time to copy the web build into its bucket and invalidate CloudFront';
        const region = Token.isUnresolved(stack.region) ? '<AWS::Region>' : stack.region;
        const siteId = stack.getLogicalId(site.node.defaultChild as CfnBucket);
        const grants = `${reason}; CDK scopes its grants to the assets bucket, the site bucket and CloudFront invalidations (which have no resource-level permission)`;
        Validations.of(handler).acknowledge(
          {
            id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
            reason: `${reason}; AWSLambdaBasicExecutionRole is what CDK gives it`,
          },
          ...['s3:Abort*', 's3:DeleteObject*', 's3:GetBucket*', 's3:GetObject*', 's3:List*'].map((action) => ({
            id: `AwsSolutions-IAM5[Action::${action}]`,
            reason: grants,
          })),
          ...[
            '*',
            `<${siteId}.Arn>/*`,
            `arn:<AWS::Partition>:s3:::cdk-${DefaultStackSynthesizer.DEFAULT_QUALIFIER}-assets-<AWS::AccountId>-${region}/*`,
          ].map((resource) => ({ id: `AwsSolutions-IAM5[Resource::${resource}]`, reason: grants })),
          { id: 'AwsSolutions-L1', reason: `${reason}; CDK chooses its Python runtime with its awscli layer` },
          { id: 'Serverless-LambdaLatestVersion', reason: `${reason}; CDK chooses its Python runtime with its awscli layer` },
          { id: 'Serverless-LambdaDLQ', reason: `${reason}; CloudFormation waits for its answer and fails the deploy on an error` },
          { id: 'Serverless-LambdaTracing', reason: `${reason}; a deploy-time copy, nothing a trace would show more of than its log` },
        );
      }
    }

    this.url = `https://${props.domainName ?? this.distribution.distributionDomainName}`;
    new CfnOutput(stack, 'WebUrl', { value: this.url, description: 'Immich’s web app, and the API at /api below it (one origin)' });
  }
}
