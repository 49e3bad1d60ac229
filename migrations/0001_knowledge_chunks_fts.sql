-- Full-text index (FTS5, BM25 ranking) over knowledge chunks, kept in step by triggers.
-- External-content table: the text lives once, in knowledge_chunks.
CREATE VIRTUAL TABLE `knowledge_chunks_fts` USING fts5(
	`heading`,
	`content`,
	content='knowledge_chunks',
	content_rowid='id',
	tokenize='unicode61 remove_diacritics 2'
);
--> statement-breakpoint
CREATE TRIGGER `knowledge_chunks_ai` AFTER INSERT ON `knowledge_chunks` BEGIN
	INSERT INTO `knowledge_chunks_fts`(rowid, heading, content) VALUES (new.id, new.heading, new.content);
END;
--> statement-breakpoint
CREATE TRIGGER `knowledge_chunks_ad` AFTER DELETE ON `knowledge_chunks` BEGIN
	INSERT INTO `knowledge_chunks_fts`(`knowledge_chunks_fts`, rowid, heading, content) VALUES ('delete', old.id, old.heading, old.content);
END;
--> statement-breakpoint
CREATE TRIGGER `knowledge_chunks_au` AFTER UPDATE ON `knowledge_chunks` BEGIN
	INSERT INTO `knowledge_chunks_fts`(`knowledge_chunks_fts`, rowid, heading, content) VALUES ('delete', old.id, old.heading, old.content);
	INSERT INTO `knowledge_chunks_fts`(rowid, heading, content) VALUES (new.id, new.heading, new.content);
END;
