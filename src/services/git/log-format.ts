// getGitLog's commits as records (records.ts).
import { records } from "./records.ts";

const LOG_FORMAT = "--format=%h%x1f%ad%x1f%an%x1f%s%x1e";
export const LOG_OPTIONS = ["--abbrev=10", "--date=short", LOG_FORMAT];

interface LogEntry {
  hash: string;
  date: string;
  author: string;
  subject: string;
}

export function parseLog(output: string): LogEntry[] {
  return records(output).map(([hash = "", date = "", author = "", subject = ""]) => ({ hash, date, author, subject }));
}
