CREATE TABLE `assistant_secret_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`assistant_id` text NOT NULL,
	`name` text NOT NULL,
	`key_hash` text NOT NULL,
	`masked` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	`revoked_at` integer,
	FOREIGN KEY (`assistant_id`) REFERENCES `public_assistants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `assistant_secret_keys_hash_unique` ON `assistant_secret_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `assistant_secret_keys_assistant_idx` ON `assistant_secret_keys` (`assistant_id`,`revoked_at`);