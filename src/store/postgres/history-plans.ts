import type {
  CoChange,
  CommitIdentifiers,
  CommitSummary,
  FileActivity,
  FileCommit,
  HistoryBatch,
  HistorySpan,
  MessageMatch,
} from "../../core/history.js";
import type { Decision, DecisionToRecord, Plan } from "../../core/plans.js";
import * as identifiers from "./commit-identifiers.js";
import { filesOfMatchingCommits } from "./commit-messages.js";
import * as history from "./history-queries.js";
import type { PgSession } from "./pg-session.js";
import * as plans from "./plan-queries.js";

/** The PostgreSQL store's history and plan records: the queries live in their own modules. */
export abstract class PostgresHistoryAndPlans {
  protected abstract readonly session: PgSession;

  createPlan(project: string, title: string, parentId: string | null): Promise<Plan> {
    return plans.createPlan(this.session, project, title, parentId);
  }

  recordDecision(project: string, planId: string, decision: DecisionToRecord): Promise<Decision> {
    return plans.recordDecision(this.session, project, planId, decision);
  }

  closePlan(project: string, planId: string, outcome: string | null): Promise<Plan> {
    return plans.closePlan(this.session, project, planId, outcome);
  }

  getPlan(project: string, planId: string): Promise<Plan | null> {
    return plans.getPlan(this.session, project, planId);
  }

  listPlans(project: string, options: { readonly openOnly: boolean }): Promise<Plan[]> {
    return plans.listPlans(this.session, project, options.openOnly);
  }

  listCommitShas(resourceId: string): Promise<string[]> {
    return history.listCommitShas(this.session, resourceId);
  }

  oldestCommits(
    resourceId: string,
    count: number,
    beforeSeconds: number | null,
  ): Promise<string[]> {
    return history.oldestCommits(this.session, resourceId, count, beforeSeconds);
  }

  writeHistory(batch: HistoryBatch): Promise<void> {
    return history.writeHistory(this.session, batch);
  }

  historySpan(resourceId: string): Promise<HistorySpan> {
    return history.historySpan(this.session, resourceId);
  }

  fileActivity(resourceId: string, paths: readonly string[]): Promise<Map<string, FileActivity>> {
    return history.fileActivity(this.session, resourceId, paths);
  }

  coChanges(
    resourceId: string,
    path: string,
    maxFiles: number,
    limit: number,
  ): Promise<CoChange[]> {
    return history.coChanges(this.session, resourceId, path, maxFiles, limit);
  }

  filesOfMatchingCommits(
    resourceId: string,
    terms: readonly string[],
    maxFiles: number,
    commits: number,
  ): Promise<MessageMatch[]> {
    return filesOfMatchingCommits(this.session, resourceId, terms, maxFiles, commits);
  }

  fileCommits(resourceId: string, path: string, limit: number): Promise<FileCommit[]> {
    return history.fileCommits(this.session, resourceId, path, limit);
  }

  getCommits(resourceId: string, shas: readonly string[]): Promise<CommitSummary[]> {
    return history.getCommits(this.session, resourceId, shas);
  }

  commitTimes(resourceId: string): Promise<number[]> {
    return history.commitTimes(this.session, resourceId);
  }

  changeTimes(
    resourceId: string,
    paths: readonly string[],
    limit: number,
  ): Promise<Map<string, number[]>> {
    return history.changeTimes(this.session, resourceId, paths, limit);
  }

  protected historyStats(): Promise<{ commits: number; changes: number; diffsRead: number }> {
    return history.historyStats(this.session);
  }

  commitsWithoutIdentifiers(resourceId: string, limit: number): Promise<string[]> {
    return identifiers.commitsWithoutIdentifiers(this.session, resourceId, limit);
  }

  setCommitIdentifiers(
    resourceId: string,
    commits: readonly { readonly sha: string; readonly identifiers: readonly string[] | null }[],
  ): Promise<void> {
    return identifiers.setCommitIdentifiers(this.session, resourceId, commits);
  }

  recentCommitIdentifiers(
    resourceId: string,
    maxFiles: number,
    limit: number,
  ): Promise<CommitIdentifiers[]> {
    return identifiers.recentCommitIdentifiers(this.session, resourceId, maxFiles, limit);
  }
}
