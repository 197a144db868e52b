import {
  assertValidCronSchedule,
  assertValidJobId,
  assertValidJobOptions,
  assertValidQueueName,
  assertValidScheduleId,
  type JobsPort,
} from './types';

/**
 * A driver behind the input checks every driver shares, so that both accept and reject exactly the
 * same input: a feature tested on the in-process driver must not start failing in production on
 * BullMQ. The drivers check only their own state (closed or not); the async methods reject rather
 * than throw, as the drivers' own did.
 */
export function withInputChecks(port: JobsPort): JobsPort {
  return {
    driver: port.driver,

    async enqueue(queue, name, data, options) {
      assertValidQueueName(queue);
      assertValidJobOptions(options);
      return port.enqueue(queue, name, data, options);
    },

    async enqueueBulk(queue, jobs, options) {
      assertValidQueueName(queue);
      // Every definition is checked before any is enqueued, so a bad one enqueues nothing.
      for (const job of jobs) assertValidJobOptions(job.options);
      return port.enqueueBulk(queue, jobs, options);
    },

    process(queue, handler, options) {
      assertValidQueueName(queue);
      port.process(queue, handler, options);
    },

    async cancel(queue, jobId) {
      assertValidQueueName(queue);
      assertValidJobId(jobId);
      return port.cancel(queue, jobId);
    },

    async schedule(queue, scheduleId, schedule) {
      assertValidQueueName(queue);
      assertValidScheduleId(scheduleId);
      assertValidCronSchedule(schedule);
      return port.schedule(queue, scheduleId, schedule);
    },

    async unschedule(queue, scheduleId) {
      assertValidQueueName(queue);
      assertValidScheduleId(scheduleId);
      return port.unschedule(queue, scheduleId);
    },

    async counts(queue) {
      assertValidQueueName(queue);
      return port.counts(queue);
    },

    queueNames: () => port.queueNames(),
    available: () => port.available(),
    onRestored: (listener) => port.onRestored(listener),
    close: (timeoutMs) => port.close(timeoutMs),
  };
}
