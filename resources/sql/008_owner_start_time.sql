-- SPDX-License-Identifier: GPL-3.0-or-later
-- Schema version 8: when the owning process started (clock ticks since boot, /proc/PID/stat), so
-- that a killed run or import is not taken for live again once another process reuses its id.
ALTER TABLE runs ADD COLUMN owner_started INTEGER;
ALTER TABLE datasets ADD COLUMN owner_started INTEGER;
