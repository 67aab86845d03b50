// Durable background jobs (pg-boss) on PostgreSQL and on the embedded PGlite. Domain code defines its queues and
// handlers on the service's JobQueue; nothing here knows what a job does.
export {
  DEFAULT_QUEUE_POLICY,
  type JobContext,
  type JobHandler,
  JobQueue,
  type JobQueueOptions,
  type JobRecord,
  type JobState,
  type JobsLog,
  type QueuePolicy,
  type QueueStats,
  type SendOptions,
  type WorkOptions,
} from "./queue.ts";
