CREATE TABLE uploads (object_key TEXT PRIMARY KEY, session_id TEXT REFERENCES sessions(id), bytes INTEGER NOT NULL);
CREATE INDEX uploads_by_session ON uploads (session_id);
