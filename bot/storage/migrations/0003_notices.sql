-- The group messages besides the lobby whose buttons belong to a table (PRODUCT.md §7.2 step 4):
-- the latest reply to /cancel and the latest unreachable-players notice.
ALTER TABLE tables ADD COLUMN cancel_msg_id INTEGER;
ALTER TABLE tables ADD COLUMN notice_msg_id INTEGER;
