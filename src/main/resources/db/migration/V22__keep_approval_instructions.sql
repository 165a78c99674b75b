-- A human node's instructions, shown to approvers in the inbox and returned by the approvals API.
ALTER TABLE approvals ADD COLUMN instructions text;
