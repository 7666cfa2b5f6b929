import type Database from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";

/**
 * Loads sqlite-vec into a connection. False when no build exists for this
 * platform: keyword search still works, vector strategies report no backend.
 */
export function loadVectorExtension(db: Database.Database): boolean {
  try {
    sqliteVec.load(db);
    return true;
  } catch {
    return false;
  }
}
