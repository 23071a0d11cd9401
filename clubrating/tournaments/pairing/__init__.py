"""Pure pairing logic (no Django): Berger tables for round robins, the Dutch system for Swiss."""
