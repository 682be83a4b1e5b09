import { handler as transcodeVideo } from '#functions/media/transcode-video.ts';
import { runTranscodeJobsWith, type TranscodeJob, type TranscodeJobEvent } from '#shared/storage/transcode-jobs.ts';

/**
 * The one way tests run the transcode function's jobs in this process, as the local server runs
 * them (infra/local/http-server.ts): `start` in a file's beforeAll, `stop` in its afterAll. Each
 * job handed on is recorded in `handed`; with `run` (the default) given to the handler at once,
 * each run's answer kept in `runs`; `settle` waits for them. `{ run: false }`: a test of what is
 * handed on, or one that runs the handler itself (`runHanded`).
 */
export const transcodeJobsInProcess = ({ run = true }: { run?: boolean } = {}) => {
  const handed: TranscodeJob[] = [];
  const runs: Promise<{ outcomes: Record<string, string> }>[] = [];
  const hand = (event: TranscodeJobEvent) => {
    handed.push(...event.jobs);
    if (run) runs.push(transcodeVideo(event));
  };
  return {
    start: () => runTranscodeJobsWith(hand),
    stop: () => runTranscodeJobsWith(undefined),
    handed,
    runs,
    /** Every run so far, finished; their outcomes together. */
    settle: async (): Promise<Record<string, string>> => Object.assign({}, ...(await Promise.all(runs)).map((each) => each.outcomes)),
    /** Runs the jobs handed on so far (and forgets them), as one invocation: its outcomes. */
    runHanded: async (): Promise<Record<string, string>> => {
      const jobs = handed.splice(0);
      return (await transcodeVideo({ jobs })).outcomes;
    },
    forget: () => {
      handed.length = 0;
      runs.length = 0;
    },
  };
};
