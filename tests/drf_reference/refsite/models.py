"""Unmanaged models over our catalogue's tables: each row's `doc` column is
the record's API JSON, so DRF serves exactly the records we serve.
"""
from django.db import models


class Agency(models.Model):
    id = models.IntegerField(primary_key=True)
    published = models.IntegerField()
    doc = models.TextField()

    class Meta:
        managed = False
        db_table = "agency"


class Vacancy(models.Model):
    id = models.IntegerField(primary_key=True)
    published = models.IntegerField()
    doc = models.TextField()

    class Meta:
        managed = False
        db_table = "vacancy"


class Competition(models.Model):
    id = models.IntegerField(primary_key=True)
    published = models.IntegerField()
    doc = models.TextField()

    class Meta:
        managed = False
        db_table = "competition"
