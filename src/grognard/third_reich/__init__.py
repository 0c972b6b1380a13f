"""Revised Third Reich: strategic layer (calendar, economy, lend lease, SW) and combat."""
