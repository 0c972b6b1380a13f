"""The rules in play: the ``third_reich`` engine system (its commands, folds, legal actions, the
referee's decisions and prompts) over the rule packages beside this one."""
