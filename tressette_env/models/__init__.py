"""Trained models shipped with the package (see ``tressette_env.learned``)."""
