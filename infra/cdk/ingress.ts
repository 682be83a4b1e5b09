import { Aws, Duration, Expiration, RemovalPolicy, Tags, Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import {
  AmazonLinuxCpuType,
  BlockDeviceVolume,
  CfnEgressOnlyInternetGateway,
  CfnInternetGateway,
  type CfnLaunchTemplate,
  CfnRoute,
  CfnVPCGatewayAttachment,
  CpuCredits,
  EbsDeviceVolumeType,
  GatewayVpcEndpointAwsService,
  HttpTokens,
  Instance,
  InstanceClass,
  InstanceSize,
  InstanceType,
  IpAddresses,
  IpProtocol,
  LaunchTemplate,
  MachineImage,
  Peer,
  Port,
  SecurityGroup,
  SpotInstanceInterruption,
  SpotRequestType,
  SubnetType,
  UserData,
  Vpc,
} from 'aws-cdk-lib/aws-ec2';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Bucket, type IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { AwsCustomResource, AwsCustomResourcePolicy, PhysicalResourceId, PhysicalResourceIdReference } from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import { metricsNamespace } from '#shared/core/log.ts';
import { isAssetUpload, type Route, routes } from '../routes.ts';
import { routeEnvironment } from './api-function.ts';
import type { FunctionRoles } from './function-roles.ts';
import { ingressBundle, ingressBundleFile } from './ingress-bundle.ts';
import { acknowledgeSdkCallHandler } from './sdk-call-handler.ts';

/**
 * `-c largeUploads=…` (docs/large-uploads.md): `spot` (the default) runs the ingress on a Spot
 * instance, `ondemand` on an on-demand one, `off` removes the ingress (and its VPC) altogether.
 */
export type LargeUploads = 'spot' | 'ondemand' | 'off';

export const largeUploadsMode = (scope: Construct): LargeUploads => {
  const value = String(scope.node.tryGetContext('largeUploads') ?? 'spot');
  if (value === 'on' || value === 'spot') return 'spot';
  if (value === 'ondemand' || value === 'off') return value;
  throw new Error(`-c largeUploads=${value}: expected spot (the default), ondemand or off (docs/large-uploads.md)`);
};

/** The ingress VPC's one IPv4 block (its one subnet's too): 11 addresses for the instance and CloudFront's interfaces. */
export const ingressVpcCidr = '10.51.0.0/28';

/** Where DescribeInstances answers the instance's Spot request id. */
const spotRequestIdPath = 'Reservations.0.Instances.0.SpotInstanceRequestId';

/** The port the ingress listens on, inside the VPC (CloudFront's VPC origin speaks HTTP to it). */
export const ingressPort = 8080;

/** The tag that marks the ingress's instance (`immich:role` = `ingress`), which `npm run start:deployed` reads back. */
export const ingressRoleTag = { key: 'immich:role', value: 'ingress' } as const;

/** The user data's markers around what `npm run start:deployed` reads back (infra/local/deployed/). */
export const userDataMarkers = {
  bundle: '# immich-ingress-bundle',
  envBegin: '# immich-ingress-env-begin',
  envEnd: '# immich-ingress-env-end',
} as const;

/** The metrics the ingress reports in the functions' namespace (its log's EMF lines), which its alarms watch. */
export const ingressMetrics = { heartbeat: 'IngressHeartbeat', diskFreePercent: 'IngressDiskFreePercent' } as const;

/**
 * What the ingress may do: the upload routes' own access (their rows), plus the link secret
 * (a shared link's key is checked the same way) and the media job it queues after recording.
 */
export const ingressAccess = (): Route => {
  const uploads = routes.filter(isAssetUpload);
  const first = uploads[0];
  if (!first) throw new Error('No upload route in the route table');
  return {
    ...first,
    data: uploads.some((route) => route.data === 'write') ? 'write' : first.data,
    store: 'put',
    secrets: true,
    mediaJobs: true,
  };
};

export interface IngressProps {
  table: ITableV2;
  originals: IBucket;
  linkSecret: ISecret;
  mediaFunction: IFunction;
  roles: FunctionRoles;
  /** `/immich/<stack>/`: the ingress logs to `<prefix>ingress`. */
  logGroupPrefix: string;
  /** The stack's origin-verify value, which CloudFront sends as `x-origin-verify` (infra/cdk/stack.ts). */
  originVerify: string;
  /** The stack's alarm topic. */
  alarms: ITopic;
  /** Spot (persistent, stopped on interruption) or on demand. */
  market: 'spot' | 'ondemand';
  /** The availability zone of its subnet (`-c ingressAvailabilityZone=…`); the Region's first when absent. */
  availabilityZone?: string | undefined;
}

/**
 * The ingress (docs/large-uploads.md): one arm64 instance that receives the stock clients' large
 * uploads as a stream and writes them to the originals bucket, reached only as the distribution's
 * VPC origin. Its network: a VPC with one private dual-stack subnet (IPv4 /28, IPv6 /64) in one
 * AZ, no NAT and no public IPv4; an internet gateway attached (a VPC origin's prerequisite; no
 * route uses it); an egress-only internet gateway for `::/0` (Lambda, CloudWatch Logs and Secrets
 * Manager through their dual-stack endpoints, AL2023's package repositories); S3 and DynamoDB
 * through gateway endpoints.
 */
export class Ingress extends Construct {
  readonly instance: Instance;
  readonly vpc: Vpc;

  constructor(scope: Construct, id: string, props: IngressProps) {
    super(scope, id);
    this.vpc = new Vpc(this, 'Vpc', {
      ipAddresses: IpAddresses.cidr(ingressVpcCidr),
      ipProtocol: IpProtocol.DUAL_STACK,
      // The Region's first zone, or the one named by `-c ingressAvailabilityZone=…` (a zone where
      // t4g.nano and CloudFront's VPC origins are both offered, when the first is not one).
      ...(props.availabilityZone ? { availabilityZones: [props.availabilityZone] } : { maxAzs: 1 }),
      natGateways: 0,
      // The default security group keeps AWS's rules: nothing uses it (CDK's restriction would be a custom resource).
      restrictDefaultSecurityGroup: false,
      subnetConfiguration: [{ name: 'Ingress', subnetType: SubnetType.PRIVATE_ISOLATED, cidrMask: 28 }],
      gatewayEndpoints: {
        S3: { service: GatewayVpcEndpointAwsService.S3 },
        DynamoDB: { service: GatewayVpcEndpointAwsService.DYNAMODB },
      },
    });
    Validations.of(this.vpc).acknowledge({
      id: 'AwsSolutions-VPC7',
      reason:
        'Flow logs would cost more a month than the instance they watch; the ingress logs every request it answers, and only CloudFront’s VPC origin reaches it',
    });
    const subnet = this.vpc.isolatedSubnets[0];
    if (!subnet) throw new Error('The ingress VPC has no subnet');
    // A VPC origin needs an internet gateway attached to the VPC; no route in the subnet leads to it.
    const gateway = new CfnInternetGateway(this, 'InternetGateway');
    new CfnVPCGatewayAttachment(this, 'InternetGatewayAttachment', { vpcId: this.vpc.vpcId, internetGatewayId: gateway.ref });
    // IPv6 out only, through the egress-only gateway CDK makes for a dual-stack VPC: the AWS APIs
    // without a gateway endpoint, over their dual-stack endpoints.
    const egressOnly = this.vpc.node.children.find((child) => child instanceof CfnEgressOnlyInternetGateway);
    new CfnRoute(this, 'Ipv6Egress', {
      routeTableId: subnet.routeTable.routeTableId,
      destinationIpv6CidrBlock: '::/0',
      egressOnlyInternetGatewayId: (egressOnly ?? new CfnEgressOnlyInternetGateway(this, 'EgressOnlyGateway', { vpcId: this.vpc.vpcId }))
        .ref,
    });

    // In: the ingress's port, from the VPC's own addresses only (CloudFront's VPC origin reaches the
    // instance through network interfaces it places in this subnet). Out: HTTPS only; over IPv4 the
    // subnet's only routes are the S3 and DynamoDB gateway endpoints, over IPv6 the egress-only gateway.
    const securityGroup = new SecurityGroup(this, 'SecurityGroup', {
      vpc: this.vpc,
      description: 'Immich ingress: HTTP 8080 from the CloudFront VPC origin; HTTPS out',
      allowAllOutbound: false,
      allowAllIpv6Outbound: false,
    });
    securityGroup.addIngressRule(Peer.ipv4(ingressVpcCidr), Port.tcp(ingressPort), 'CloudFront VPC origin (inside the VPC)');
    securityGroup.addEgressRule(Peer.anyIpv4(), Port.tcp(443), 'S3 and DynamoDB through their gateway endpoints (the only IPv4 routes)');
    securityGroup.addEgressRule(Peer.anyIpv6(), Port.tcp(443), 'AWS dual-stack endpoints and the AL2023 repositories over IPv6');

    // Logs: its own group, kept as long as the functions' (infra/cdk/api-function.ts).
    const logGroupName = `${props.logGroupPrefix}ingress`;
    new LogGroup(this, 'Logs', { logGroupName, retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });

    // The role: the upload routes' table, secret and media-job grants (infra/cdk/function-roles.ts),
    // the originals' upload prefix, its log group, and its bundle.
    const role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('ec2.amazonaws.com'),
      description: 'Immich ingress: the upload routes access, on the originals upload prefix',
    });
    const access = ingressAccess();
    props.roles.grantRouteAccess(role, access);
    const uploads = props.originals.arnForObjects('upload/*');
    role.addToPolicy(
      new PolicyStatement({
        actions: [
          's3:PutObject',
          's3:AbortMultipartUpload',
          's3:PutObjectTagging',
          's3:PutObjectVersionTagging',
          's3:DeleteObjectTagging',
          's3:DeleteObjectVersionTagging',
          's3:GetObject',
          's3:GetObjectVersion',
          's3:DeleteObject',
          's3:DeleteObjectVersion',
        ],
        resources: [uploads],
      }),
    );
    props.roles.acknowledgeWildcard(role, uploads, 'the originals’ upload prefix, where each asset’s key is made at upload');
    const streams = `arn:${Aws.PARTITION}:logs:${Aws.REGION}:${Aws.ACCOUNT_ID}:log-group:${logGroupName}:*`;
    role.addToPolicy(new PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [streams] }));
    props.roles.acknowledgeWildcard(role, streams, 'the ingress’s own log group and the streams it makes there');
    const bundle = ingressBundle(this, 'Bundle');
    role.addToPolicy(
      new PolicyStatement({
        actions: ['s3:GetObject'],
        resources: [`arn:${Aws.PARTITION}:s3:::${bundle.s3BucketName}/${bundle.s3ObjectKey}`],
      }),
    );

    // The environment: what the upload routes' functions get (routeEnvironment, the same code;
    // their MAX_UPLOAD_MB is Lambda's limit, which the ingress does not read: its own limits are
    // the user's quota and S3's parts, docs/immich-compatibility.md), then what only the ingress has.
    // No REALTIME_ENDPOINT: the WebSocket API's management endpoint answers on IPv4 only, which the
    // instance has no way out to, so an upload through it tells no open app at once; the apps see
    // it at their next sync (docs/large-uploads.md, "Limits").
    const region = Aws.REGION;
    const { REALTIME_ENDPOINT: _unreachable, ...uploadEnvironment } = routeEnvironment(access, {
      table: props.table,
      originals: props.originals,
      linkSecret: props.linkSecret,
      mediaFunctionArn: props.mediaFunction.functionArn,
      realtimeEndpoint: '',
    });
    const environment: Record<string, string> = {
      ...uploadEnvironment,
      AWS_REGION: region,
      INGRESS_PORT: String(ingressPort),
      ORIGIN_VERIFY: props.originVerify,
      LOG_GROUP: logGroupName,
      // No NAT: what has no gateway endpoint is reached over IPv6, at the Region's dual-stack endpoints.
      AWS_ENDPOINT_URL_LAMBDA: `https://lambda.${region}.api.aws`,
      AWS_ENDPOINT_URL_CLOUDWATCH_LOGS: `https://logs.${region}.api.aws`,
      AWS_ENDPOINT_URL_SECRETS_MANAGER: `https://secretsmanager.${region}.api.aws`,
    };

    const userData = UserData.forLinux();
    userData.addCommands(
      'set -euo pipefail',
      `${userDataMarkers.bundle} s3://${bundle.s3BucketName}/${bundle.s3ObjectKey}`,
      // The environment file systemd gives the process (comments are ignored there).
      "install -d -m 0755 /etc/immich-ingress && cat > /etc/immich-ingress/env <<'IMMICH_INGRESS_ENV'",
      userDataMarkers.envBegin,
      ...Object.entries(environment).map(([key, value]) => `${key}=${value}`),
      userDataMarkers.envEnd,
      'IMMICH_INGRESS_ENV',
      // The network steps are tried again for a while (the first boot may come before the routes settle).
      'retry() { for attempt in 1 2 3 4 5 6 7 8 9 10; do "$@" && return 0; sleep $((attempt * 5)); done; return 1; }',
      // Node from AL2023's own repository (its namespaced node-24), unzip; AWS CLI comes with the AMI.
      'retry dnf -y install nodejs24 unzip dnf-plugins-core',
      // No SSM endpoints here (no NAT, no interface endpoints): the agent would only retry forever.
      'systemctl disable --now amazon-ssm-agent || true',
      'id immich-ingress >/dev/null 2>&1 || useradd --system --no-create-home --shell /sbin/nologin immich-ingress',
      'chgrp immich-ingress /etc/immich-ingress/env && chmod 0640 /etc/immich-ingress/env',
      `retry aws s3 cp --region ${region} s3://${bundle.s3BucketName}/${bundle.s3ObjectKey} /tmp/immich-ingress.zip`,
      'rm -rf /opt/immich-ingress && install -d -m 0755 /opt/immich-ingress && unzip -q /tmp/immich-ingress.zip -d /opt/immich-ingress && rm /tmp/immich-ingress.zip',
      "cat > /etc/systemd/system/immich-ingress.service <<'IMMICH_INGRESS_UNIT'",
      '[Unit]',
      'Description=Immich ingress (large uploads, docs/large-uploads.md)',
      'Wants=network-online.target',
      'After=network-online.target',
      '[Service]',
      'User=immich-ingress',
      'Group=immich-ingress',
      'EnvironmentFile=/etc/immich-ingress/env',
      `ExecStart=/usr/bin/node-24 --max-old-space-size=256 /opt/immich-ingress/${ingressBundleFile}`,
      'Restart=always',
      'RestartSec=2',
      'MemoryMax=400M',
      'NoNewPrivileges=yes',
      'ProtectSystem=strict',
      'ProtectHome=yes',
      'PrivateTmp=yes',
      'PrivateDevices=yes',
      'ProtectKernelTunables=yes',
      'ProtectKernelModules=yes',
      'ProtectControlGroups=yes',
      'RestrictSUIDSGID=yes',
      'LimitNOFILE=65536',
      '[Install]',
      'WantedBy=multi-user.target',
      'IMMICH_INGRESS_UNIT',
      // Security updates by itself: AL2023 pins each AMI to its release, so a plain upgrade finds
      // nothing new; every night the newest release's security updates, and a reboot when the
      // kernel or a core library changed (docs/large-uploads.md).
      "cat > /etc/systemd/system/immich-ingress-update.service <<'IMMICH_INGRESS_UPDATE'",
      '[Unit]',
      'Description=Security updates from the newest AL2023 release, then a reboot when needed',
      '[Service]',
      'Type=oneshot',
      "ExecStart=/bin/sh -c 'dnf -y upgrade --releasever=latest --security && (dnf needs-restarting -r || systemctl reboot)'",
      'IMMICH_INGRESS_UPDATE',
      "cat > /etc/systemd/system/immich-ingress-update.timer <<'IMMICH_INGRESS_TIMER'",
      '[Unit]',
      'Description=Nightly security updates of the Immich ingress',
      '[Timer]',
      'OnBootSec=15min',
      'OnCalendar=*-*-* 04:00:00',
      'RandomizedDelaySec=1h',
      'Persistent=true',
      '[Install]',
      'WantedBy=timers.target',
      'IMMICH_INGRESS_TIMER',
      'systemctl daemon-reload',
      'systemctl enable --now immich-ingress.service immich-ingress-update.timer',
    );

    this.instance = new Instance(this, 'Instance', {
      vpc: this.vpc,
      vpcSubnets: { subnets: [subnet] },
      securityGroup,
      role,
      instanceType: InstanceType.of(InstanceClass.T4G, InstanceSize.NANO),
      // AL2023's public SSM parameter, resolved by CloudFormation at deploy time: synth stays offline,
      // and a deploy after a new AMI replaces the instance with it.
      machineImage: MachineImage.latestAmazonLinux2023({ cpuType: AmazonLinuxCpuType.ARM_64 }),
      userData,
      // A new bundle or environment is a new instance (user data runs once, at first boot).
      userDataCausesReplacement: true,
      // IMDSv2 only (session tokens), one hop: the instance profile's credentials stay on the instance.
      httpTokens: HttpTokens.REQUIRED,
      httpPutResponseHopLimit: 1,
      associatePublicIpAddress: false,
      creditSpecification: CpuCredits.STANDARD,
      blockDevices: [
        {
          deviceName: '/dev/xvda',
          volume: BlockDeviceVolume.ebs(8, { volumeType: EbsDeviceVolumeType.GP3, encrypted: true, deleteOnTermination: true }),
        },
      ],
    });
    Tags.of(this.instance).add(ingressRoleTag.key, ingressRoleTag.value);
    bundle.addResourceMetadata(this.instance.instance, 'UserData');
    if (props.market === 'spot') {
      // Persistent and stopped on interruption: the instance keeps its id (the VPC origin's target)
      // and starts again when capacity returns. A far end date: a persistent request defaults to 7 days.
      const template = new LaunchTemplate(this, 'Spot', {
        spotOptions: {
          requestType: SpotRequestType.PERSISTENT,
          interruptionBehavior: SpotInstanceInterruption.STOP,
          validUntil: Expiration.atDate(new Date('2099-12-31T00:00:00Z')),
        },
      });
      // EC2 takes the date as `YYYY-MM-DDTHH:MM:SSZ` (CDK writes an HTTP date).
      (template.node.defaultChild as CfnLaunchTemplate).addPropertyOverride(
        'LaunchTemplateData.InstanceMarketOptions.SpotOptions.ValidUntil',
        '2099-12-31T00:00:00Z',
      );
      this.instance.instance.launchTemplate = {
        launchTemplateId: template.launchTemplateId,
        version: template.latestVersionNumber,
      };
      // A persistent request outlives its instance: terminated (a deploy that replaces it, or
      // `npm run destroy`), EC2 would launch another outside the stack. So the request is
      // cancelled first: this resource names the instance (CloudFormation removes it before the
      // instance), finds the instance's request, and cancels that request when it goes.
      const request = new AwsCustomResource(this, 'SpotRequest', {
        resourceType: 'Custom::IngressSpotRequest',
        onUpdate: {
          service: 'EC2',
          action: 'describeInstances',
          parameters: { InstanceIds: [this.instance.instanceId] },
          physicalResourceId: PhysicalResourceId.fromResponse(spotRequestIdPath),
          outputPaths: [spotRequestIdPath],
        },
        onDelete: {
          service: 'EC2',
          action: 'cancelSpotInstanceRequests',
          parameters: { SpotInstanceRequestIds: [new PhysicalResourceIdReference()] },
        },
        policy: AwsCustomResourcePolicy.fromStatements([
          // DescribeInstances has no resource-level permission (it takes '*' only).
          new PolicyStatement({ actions: ['ec2:DescribeInstances'], resources: ['*'] }),
          new PolicyStatement({
            actions: ['ec2:CancelSpotInstanceRequests'],
            resources: [`arn:${Aws.PARTITION}:ec2:${Aws.REGION}:${Aws.ACCOUNT_ID}:spot-instances-request/*`],
          }),
        ]),
        installLatestAwsSdk: false,
        memorySize: 256,
      });
      acknowledgeSdkCallHandler(this, 'the ingress’s Spot request');
      Validations.of(request).acknowledge(
        { id: 'AwsSolutions-IAM5[Resource::*]', reason: 'ec2:DescribeInstances only, which takes no resource-level permission' },
        {
          id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ec2:<AWS::Region>:<AWS::AccountId>:spot-instances-request/*]',
          reason: 'Cancels the ingress instance’s own Spot request, whose id is known only once the instance runs',
        },
      );
    }
    Validations.of(this.instance).acknowledge(
      {
        id: 'AwsSolutions-EC28',
        reason: 'Detailed monitoring costs about $2 a month; the status checks, heartbeat and disk alarms watch the instance',
      },
      {
        id: 'AwsSolutions-EC29',
        reason:
          'One stateless transport: replaced by every deploy that changes it, and nothing on it is kept (each upload is in S3 or aborted)',
      },
    );

    // A pending upload's original is tagged `ingress=pending` until recorded: one the process could
    // not finish (killed between storing and recording) expires the next day.
    if (props.originals instanceof Bucket) {
      props.originals.addLifecycleRule({
        id: 'expire-pending-ingress-uploads',
        prefix: 'upload/',
        tagFilters: { ingress: 'pending' },
        expiration: Duration.days(1),
      });
    }

    const alarm = (
      alarmId: string,
      metric: Metric,
      options: { threshold: number; below?: boolean; missing: TreatMissingData },
      description: string,
    ) =>
      new Alarm(this, alarmId, {
        metric,
        threshold: options.threshold,
        evaluationPeriods: 1,
        comparisonOperator: options.below ? ComparisonOperator.LESS_THAN_THRESHOLD : ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: options.missing,
        alarmDescription: description,
      }).addAlarmAction(new SnsAction(props.alarms));
    const fiveMinutes = Duration.minutes(5);
    // The ingress beats every five minutes (infra/ingress/health.ts): a quarter of an hour without one is an alarm.
    const quarterHour = Duration.minutes(15);
    alarm(
      'StatusCheckFailed',
      new Metric({
        namespace: 'AWS/EC2',
        metricName: 'StatusCheckFailed',
        dimensionsMap: { InstanceId: this.instance.instanceId },
        period: fiveMinutes,
        statistic: 'Maximum',
      }),
      { threshold: 1, missing: TreatMissingData.NOT_BREACHING },
      'The ingress instance failed its status checks',
    );
    alarm(
      'NoHeartbeat',
      new Metric({ namespace: metricsNamespace, metricName: ingressMetrics.heartbeat, period: quarterHour, statistic: 'Sum' }),
      { threshold: 1, below: true, missing: TreatMissingData.BREACHING },
      'The ingress reported no heartbeat for a quarter of an hour (stopped, an interrupted Spot instance, unhealthy or hung): large uploads fail',
    );
    alarm(
      'LowDisk',
      new Metric({ namespace: metricsNamespace, metricName: ingressMetrics.diskFreePercent, period: quarterHour, statistic: 'Minimum' }),
      { threshold: 15, below: true, missing: TreatMissingData.NOT_BREACHING },
      'The ingress instance has less than 15 % of its disk free',
    );
  }
}
