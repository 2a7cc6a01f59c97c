#!/usr/bin/env python3
"""Runs the DRF reference app the differential test compares our API with.

The database comes from the REF_DB environment variable (our SQLite file);
see refsite/settings.py.
"""
import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "refsite.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
