import { BadRequest } from '../errors';

/**
 * A file the CSV reader cannot read: an encoding it refuses, a quote never closed, a limit
 * passed. A `BadRequest` (400, problem type `bad-request`) whose detail is written for the
 * person who saved the file, and names the line when there is one.
 */
export class CsvError extends BadRequest {
  constructor(
    message: string,
    /** The 1-based physical line of the file the problem is on, when it is on one. */
    readonly line?: number,
  ) {
    super(line === undefined ? message : `Line ${line}: ${message}`);
  }
}
