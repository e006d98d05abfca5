-- Where a table's hands go (#32), fixed when it is opened: 'private' (each player's private
-- chat) or 'group' (ephemeral messages in the group, each seen only by its owner); and the
-- seats whose hands went to private at this table all the same (an ephemeral send failed, or
-- the owner chose ⋯ «В личку»).
ALTER TABLE tables ADD COLUMN hands TEXT NOT NULL DEFAULT 'private';
ALTER TABLE seats ADD COLUMN private INTEGER NOT NULL DEFAULT 0;
