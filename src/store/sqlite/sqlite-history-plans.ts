import type Database from "better-sqlite3";
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
import * as history from "./history-queries.js";
import * as plans from "./plan-queries.js";

/** The SQLite store's history and plan records: the queries live in their own modules. */
export abstract class SqliteHistoryAndPlans {
  protected abstract readonly db: Database.Database;

  async createPlan(project: string, title: string, parentId: string | null): Promise<Plan> {
    return plans.createPlan(this.db, project, title, parentId);
  }

  async recordDecision(
    project: string,
    planId: string,
    decision: DecisionToRecord,
  ): Promise<Decision> {
    return plans.recordDecision(this.db, project, planId, decision);
  }

  async closePlan(project: string, planId: string, outcome: string | null): Promise<Plan> {
    return plans.closePlan(this.db, project, planId, outcome);
  }

  async getPlan(project: string, planId: string): Promise<Plan | null> {
    return plans.getPlan(this.db, project, planId);
  }

  async listPlans(project: string, options: { readonly openOnly: boolean }): Promise<Plan[]> {
    return plans.listPlans(this.db, project, options.openOnly);
  }

  async listCommitShas(resourceId: string): Promise<string[]> {
    return history.listCommitShas(this.db, resourceId);
  }

  async oldestCommits(
    resourceId: string,
    count: number,
    beforeSeconds: number | null,
  ): Promise<string[]> {
    return history.oldestCommits(this.db, resourceId, count, beforeSeconds);
  }

  async writeHistory(batch: HistoryBatch): Promise<void> {
    history.writeHistory(this.db, batch);
  }

  async historySpan(resourceId: string): Promise<HistorySpan> {
    return history.historySpan(this.db, resourceId);
  }

  async fileActivity(
    resourceId: string,
    paths: readonly string[],
  ): Promise<Map<string, FileActivity>> {
    return history.fileActivity(this.db, resourceId, paths);
  }

  async coChanges(
    resourceId: string,
    path: string,
    maxFiles: number,
    limit: number,
  ): Promise<CoChange[]> {
    return history.coChanges(this.db, resourceId, path, maxFiles, limit);
  }

  async filesOfMatchingCommits(
    resourceId: string,
    terms: readonly string[],
    maxFiles: number,
    commits: number,
  ): Promise<MessageMatch[]> {
    return history.filesOfMatchingCommits(this.db, resourceId, terms, maxFiles, commits);
  }

  async fileCommits(resourceId: string, path: string, limit: number): Promise<FileCommit[]> {
    return history.fileCommits(this.db, resourceId, path, limit);
  }

  async getCommits(resourceId: string, shas: readonly string[]): Promise<CommitSummary[]> {
    return history.getCommits(this.db, resourceId, shas);
  }

  async commitTimes(resourceId: string): Promise<number[]> {
    return history.commitTimes(this.db, resourceId);
  }

  async changeTimes(
    resourceId: string,
    paths: readonly string[],
    limit: number,
  ): Promise<Map<string, number[]>> {
    return history.changeTimes(this.db, resourceId, paths, limit);
  }

  async commitsWithoutIdentifiers(resourceId: string, limit: number): Promise<string[]> {
    return identifiers.commitsWithoutIdentifiers(this.db, resourceId, limit);
  }

  async setCommitIdentifiers(
    resourceId: string,
    commits: readonly { readonly sha: string; readonly identifiers: readonly string[] | null }[],
  ): Promise<void> {
    return identifiers.setCommitIdentifiers(this.db, resourceId, commits);
  }

  async recentCommitIdentifiers(
    resourceId: string,
    maxFiles: number,
    limit: number,
  ): Promise<CommitIdentifiers[]> {
    return identifiers.recentCommitIdentifiers(this.db, resourceId, maxFiles, limit);
  }
}
