/**
 * Ships the ingress's log lines to CloudWatch Logs (deployed, `LOG_GROUP`): the Lambda functions'
 * lines get there by Lambda itself, the instance's would not. The same JSON lines as stdout (so
 * the metric filters and embedded metrics of shared/http/access-log.ts read them alike), in batches
 * of PutLogEvents into one stream per boot. The buffer is bounded: past it the oldest lines are
 * dropped (and counted), never the process's memory. The client's endpoint is the SDK's
 * (`AWS_ENDPOINT_URL_CLOUDWATCH_LOGS`: the stack sets the dual-stack one, docs/large-uploads.md).
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { CloudWatchLogsClient, CreateLogStreamCommand, PutLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';

interface Event {
  timestamp: number;
  message: string;
}

/** PutLogEvents' limits: 10,000 events and 1 MiB a call, counting 26 bytes per event. */
const maxEvents = 10_000;
const maxBatchBytes = 1_048_576;
const eventOverhead = 26;
/** What is kept while CloudWatch cannot be reached. */
const maxBufferedBytes = 8 * 1024 * 1024;

export class LogShipper {
  private readonly client: CloudWatchLogsClient;
  private readonly group: string;
  readonly stream: string;
  private buffer: Event[] = [];
  private bufferedBytes = 0;
  private dropped = 0;
  private created = false;
  private flushing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(group: string, client = new CloudWatchLogsClient({})) {
    this.client = client;
    this.group = group;
    this.stream = `${new Date().toISOString().slice(0, 10)}/${hostname()}/${randomUUID().slice(0, 8)}`;
  }

  push(message: string): void {
    const bytes = Buffer.byteLength(message) + eventOverhead;
    this.buffer.push({ timestamp: Date.now(), message });
    this.bufferedBytes += bytes;
    while (this.bufferedBytes > maxBufferedBytes && this.buffer.length > 1) {
      const oldest = this.buffer.shift();
      if (oldest) this.bufferedBytes -= Buffer.byteLength(oldest.message) + eventOverhead;
      this.dropped++;
    }
  }

  /** Sends what is buffered; a failure keeps the lines for the next try. */
  flush(): Promise<void> {
    this.flushing ??= this.send().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  start(everyMs = 5_000): void {
    this.timer = setInterval(() => void this.flush().catch(() => undefined), everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  private async send(): Promise<void> {
    if (!this.created) {
      await this.client
        .send(new CreateLogStreamCommand({ logGroupName: this.group, logStreamName: this.stream }))
        .catch((error: unknown) => {
          if ((error as { name?: string }).name !== 'ResourceAlreadyExistsException') throw error;
        });
      this.created = true;
    }
    if (this.dropped > 0) {
      this.buffer.unshift({
        timestamp: this.buffer[0]?.timestamp ?? Date.now(),
        message: JSON.stringify({ level: 'WARN', message: 'ingress log lines dropped', dropped: this.dropped }),
      });
      this.dropped = 0;
    }
    while (this.buffer.length > 0) {
      let bytes = 0;
      let count = 0;
      while (count < this.buffer.length && count < maxEvents) {
        const size = Buffer.byteLength(this.buffer[count]?.message ?? '') + eventOverhead;
        if (bytes + size > maxBatchBytes && count > 0) break;
        bytes += size;
        count++;
      }
      const batch = this.buffer.slice(0, count);
      await this.client.send(new PutLogEventsCommand({ logGroupName: this.group, logStreamName: this.stream, logEvents: batch }));
      this.buffer = this.buffer.slice(count);
      this.bufferedBytes -= bytes;
    }
  }
}
